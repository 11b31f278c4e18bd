package dev.proactor.bench.file;

import java.nio.file.Path;
import java.util.Locale;

/**
 * Entry point of the child JVM that runs one proactor or JDK row, so each row starts with a cold JVM and its own
 * {@code -Dproactor.*} properties. Arguments: {@code proactor|jdk FILE SIZE WORKLOAD DEPTH WARMUP SECONDS
 * DIRECT THREADS}. Prints one {@code RESULT} line (parsed by {@link RowLauncher}) and exits 0, or prints the
 * failure to stderr and exits 1.
 */
public final class RowMain {

    /** Prefix of the line carrying the measurement. */
    static final String RESULT = "RESULT";

    private RowMain() {
    }

    /**
     * Runs one row.
     *
     * @param args see the class comment
     */
    public static void main(String[] args) {
        try {
            System.out.println(runRow(args));
            System.out.flush();
        } catch (Throwable t) {
            System.err.println("file-bench row failed: " + t);
            t.printStackTrace();
            System.exit(1);
        }
    }

    /** Runs the row of {@code args} in this JVM and returns its {@code RESULT} line. */
    static String runRow(String[] args) throws Exception {
        if (args.length != 9) {
            throw new IllegalArgumentException("expected 9 arguments, got " + args.length);
        }
        String kind = args[0];
        Path file = Path.of(args[1]);
        long size = Long.parseLong(args[2]);
        Workload workload = Workload.byName(args[3]);
        int depth = Integer.parseInt(args[4]);
        double warmup = Double.parseDouble(args[5]);
        double seconds = Double.parseDouble(args[6]);
        DirectMode mode = DirectMode.byName(args[7]);
        int threads = Integer.parseInt(args[8]);
        ReadLoop.Measurement m;
        boolean direct;
        String engine;
        if (kind.equals("jdk")) {
            direct = mode != DirectMode.OFF;
            m = new JdkReadRow(file, size, workload, depth, direct, threads).measure(warmup, seconds);
            engine = "jdk-afc/jdk-afc";
        } else if (kind.equals("proactor")) {
            ProactorReadRow.Outcome o = new ProactorReadRow(file, size, workload, depth, mode)
                    .measure(warmup, seconds);
            m = o.measurement();
            direct = o.direct();
            engine = o.engine() + "/" + o.fileEngine();
        } else {
            throw new IllegalArgumentException("kind must be proactor or jdk, was '" + kind + "'");
        }
        return String.format(Locale.ROOT, "%s %d %d %.6f %.3f %.3f %b %s %d", RESULT, m.ops(), m.bytes(),
                m.seconds(), m.p50Us(), m.p99Us(), direct, engine, m.checkedBytes());
    }
}
