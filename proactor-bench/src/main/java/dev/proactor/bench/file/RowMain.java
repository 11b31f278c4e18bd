package dev.proactor.bench.file;

import java.nio.file.Path;
import java.util.Locale;

/**
 * Entry point of the child JVM that runs one proactor or JDK row, so each row starts with a cold JVM and its own
 * {@code -Dproactor.*} properties. Arguments: {@code KIND FILE SIZE WORKLOAD DEPTH WARMUP SECONDS DIRECT THREADS},
 * KIND one of {@code proactor} (AsynchChannel), {@code jdk} (AsynchronousFileChannel on THREADS threads),
 * {@code afc-jdk}, {@code afc-proactor} (AsynchronousFileChannel as opened by a program), {@code vt-jdk},
 * {@code vt-proactor} (DEPTH virtual threads blocking in FileChannel reads; JDK 21+). Prints one {@code RESULT} line (parsed by {@link RowLauncher}) and exits 0, or prints the
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
        } else if (kind.startsWith("afc-") || kind.startsWith("vt-")) {
            boolean jdk = kind.endsWith("-jdk");
            Nio2ReadRows.Outcome o = kind.startsWith("afc-")
                    ? Nio2ReadRows.asynchronous(jdk, file, size, workload, depth, mode, warmup, seconds)
                    : Nio2ReadRows.virtualThreads(jdk, file, size, workload, depth, mode, warmup, seconds);
            m = o.measurement();
            direct = o.direct();
            engine = (kind.startsWith("afc-") ? "AsynchronousFileChannel/" : "FileChannel/") + o.engine();
        } else {
            throw new IllegalArgumentException("kind must be proactor, jdk, afc-jdk, afc-proactor, vt-jdk or"
                    + " vt-proactor, was '" + kind + "'");
        }
        return String.format(Locale.ROOT, "%s %d %d %.6f %.3f %.3f %b %s %d %d %d", RESULT, m.ops(), m.bytes(),
                m.seconds(), m.p50Us(), m.p99Us(), direct, engine, m.checkedBytes(), m.peakThreads(),
                m.peakIoWorkers());
    }
}
