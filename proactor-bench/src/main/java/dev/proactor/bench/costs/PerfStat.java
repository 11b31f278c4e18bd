package dev.proactor.bench.costs;

import dev.proactor.bench.harness.LogTail;
import dev.proactor.bench.harness.LoggedProcess;
import dev.proactor.bench.harness.ProcessRegistry;
import dev.proactor.bench.harness.RunFailure;
import dev.proactor.bench.harness.Taskset;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * {@code perf stat -x, --per-thread} on a running server, started with its events disabled and switched on and off
 * through its control FIFOs ({@code --control fifo:CTL,ACK}): perf attaches while the load generator warms up
 * (attaching to a JVM's threads takes up to a second on a busy machine), and counts exactly between the
 * acknowledged {@code enable} and {@code disable}. perf is pinned with the load generator, off the server's CPU.
 */
public final class PerfStat {
    /** How long perf may take to acknowledge a command (it may still be attaching when it gets {@code enable}). */
    private static final long ACK_TIMEOUT_SECONDS = 30;
    /** What this class writes into the acknowledgement FIFO itself to stop its reader thread. */
    private static final String BYE = "bye";

    private final String perf;
    private final List<String> events;
    private final boolean pinning;
    private final String cpus;

    /**
     * Creates the runner.
     *
     * @param perf    the perf executable
     * @param events  the events to count (those this kernel has)
     * @param pinning whether to pin perf
     * @param cpus    taskset CPU list for perf
     */
    public PerfStat(String perf, List<String> events, boolean pinning, String cpus) {
        this.perf = perf;
        this.events = List.copyOf(events);
        this.pinning = pinning;
        this.cpus = cpus;
    }

    /**
     * The command line.
     *
     * @param pid          the server's process id
     * @param guardSeconds how long perf's workload ({@code sleep}) lasts at most; {@link Counting#finish} ends it
     * @param output       the file perf writes its counts to
     * @param ctl          perf's control FIFO
     * @param ack          perf's acknowledgement FIFO
     * @return the command
     */
    public List<String> command(long pid, int guardSeconds, Path output, Path ctl, Path ack) {
        List<String> cmd = new ArrayList<>(Taskset.prefix(pinning, cpus));
        cmd.addAll(List.of(perf, "stat", "-D", "-1", "--control", "fifo:" + ctl + "," + ack, "-x,", "--per-thread",
                "-e", String.join(",", events), "-p", Long.toString(pid), "-o", output.toString(), "--", "sleep",
                Integer.toString(guardSeconds)));
        return cmd;
    }

    /**
     * Starts perf on the server with its events disabled.
     *
     * @param pid          the server's process id
     * @param guardSeconds how long perf runs at most
     * @param log          log of perf's command line and stderr; the counts go to {@code log + ".csv"}
     * @param registry     live-process registry
     * @return the running perf, to {@link Counting#enable}, {@link Counting#disable}, {@link Counting#finish}
     * @throws RunFailure when the FIFOs cannot be made or perf cannot be started
     * @throws InterruptedException when interrupted
     */
    public Counting start(long pid, int guardSeconds, Path log, ProcessRegistry registry)
            throws RunFailure, InterruptedException {
        Path csv = log.resolveSibling(log.getFileName() + ".csv");
        Path ctl = log.resolveSibling(log.getFileName() + ".ctl");
        Path ack = log.resolveSibling(log.getFileName() + ".ack");
        mkfifo(ctl, ack);
        RandomAccessFile ctlFile = null;
        RandomAccessFile ackFile = null;
        try {
            // read-write opens of a FIFO never block on Linux (we are reader and writer ourselves)
            ctlFile = new RandomAccessFile(ctl.toFile(), "rw");
            ackFile = new RandomAccessFile(ack.toFile(), "rw");
        } catch (IOException e) {
            closeQuietly(ctlFile, log);
            throw new RunFailure("cannot open perf's control FIFOs " + ctl + ", " + ack + ": " + e);
        }
        Process p;
        try {
            p = LoggedProcess.start("perf", command(pid, guardSeconds, csv, ctl, ack), log, registry);
        } catch (RunFailure e) {
            closeQuietly(ctlFile, log);
            closeQuietly(ackFile, log);
            throw e;
        }
        return new Counting(p, log, csv, ctl, ack, ctlFile, ackFile, registry);
    }

    private static void mkfifo(Path ctl, Path ack) throws RunFailure, InterruptedException {
        try {
            Files.deleteIfExists(ctl);
            Files.deleteIfExists(ack);
            Process p = new ProcessBuilder("mkfifo", ctl.toString(), ack.toString()).redirectErrorStream(true)
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new RunFailure("mkfifo " + ctl + " " + ack + " failed: " + out);
            }
        } catch (IOException e) {
            throw new RunFailure("cannot run mkfifo: " + e);
        }
    }

    private static void closeQuietly(RandomAccessFile f, Path log) {
        if (f == null) {
            return;
        }
        try {
            f.close();
        } catch (IOException e) {
            System.err.println("    cannot close a perf control FIFO (" + log + "): " + e);
        }
    }

    /** A perf process attached to the server, counting only between {@link #enable} and {@link #disable}. */
    public final class Counting {
        private final Process process;
        private final Path log;
        private final Path csv;
        private final Path ctl;
        private final Path ack;
        private final RandomAccessFile ctlFile;
        private final RandomAccessFile ackFile;
        private final ProcessRegistry registry;
        private final BlockingQueue<String> acks = new LinkedBlockingQueue<>();
        private final Thread reader;

        private Counting(Process process, Path log, Path csv, Path ctl, Path ack, RandomAccessFile ctlFile,
                         RandomAccessFile ackFile, ProcessRegistry registry) {
            this.process = process;
            this.log = log;
            this.csv = csv;
            this.ctl = ctl;
            this.ack = ack;
            this.ctlFile = ctlFile;
            this.ackFile = ackFile;
            this.registry = registry;
            this.reader = new Thread(this::readAcks, "perf-ack");
            this.reader.setDaemon(true);
            this.reader.start();
        }

        /** Reads perf's acknowledgements until {@link #BYE}, which {@link #close} writes. */
        private void readAcks() {
            try {
                String line;
                // perf writes "ack\n" and the string's terminating NUL: drop NULs
                while ((line = ackFile.readLine()) != null) {
                    String a = line.replace("\0", "").strip();
                    if (a.equals(BYE)) {
                        break;
                    }
                    acks.add(a);
                }
            } catch (IOException e) {
                acks.add("error: " + e);
            }
        }

        /**
         * Switches counting on and waits for perf's acknowledgement.
         *
         * @return {@link System#nanoTime()} when perf acknowledged: counting runs from about then
         * @throws RunFailure           when perf does not acknowledge
         * @throws InterruptedException when interrupted
         */
        public long enable() throws RunFailure, InterruptedException {
            return command("enable");
        }

        /**
         * Switches counting off and waits for perf's acknowledgement.
         *
         * @return {@link System#nanoTime()} when perf acknowledged
         * @throws RunFailure           when perf does not acknowledge
         * @throws InterruptedException when interrupted
         */
        public long disable() throws RunFailure, InterruptedException {
            return command("disable");
        }

        private long command(String what) throws RunFailure, InterruptedException {
            try {
                ctlFile.write((what + "\n").getBytes(StandardCharsets.US_ASCII));
            } catch (IOException e) {
                throw new RunFailure("cannot write '" + what + "' to perf's control FIFO " + ctl + ": " + e);
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(ACK_TIMEOUT_SECONDS);
            while (System.nanoTime() < deadline) {
                String a = acks.poll(50, TimeUnit.MILLISECONDS);
                if (a != null) {
                    if (!a.equals("ack")) {
                        throw new RunFailure("perf answered '" + a + "' to '" + what + "' (log: " + log + ")");
                    }
                    return System.nanoTime();
                }
                if (!process.isAlive()) {
                    throw new RunFailure("perf stat exited with code " + process.exitValue() + " before it "
                            + "acknowledged '" + what + "': " + LogTail.reason(log) + " (log: " + log + ")");
                }
            }
            throw new RunFailure("perf did not acknowledge '" + what + "' within " + ACK_TIMEOUT_SECONDS
                    + " s (log: " + log + ")");
        }

        /**
         * Ends perf's workload so that perf writes its counts and exits, then reads them.
         *
         * @return the counts
         * @throws RunFailure           when perf fails or its output cannot be read
         * @throws InterruptedException when interrupted
         */
        public PerfSample finish() throws RunFailure, InterruptedException {
            try {
                // perf writes its counts when its workload (sleep) ends
                process.children().forEach(ProcessHandle::destroy);
                if (!process.waitFor(30, TimeUnit.SECONDS)) {
                    throw new RunFailure("perf stat did not exit within 30 s after its workload ended (log: " + log
                            + ")");
                }
                if (process.exitValue() != 0) {
                    throw new RunFailure("perf stat exited with code " + process.exitValue() + ": "
                            + LogTail.reason(log) + " (log: " + log + ")");
                }
                return PerfSample.parse(Files.readAllLines(csv, StandardCharsets.UTF_8), events);
            } catch (IOException e) {
                throw new RunFailure("cannot read perf output " + csv + ": " + e);
            } catch (IllegalArgumentException e) {
                throw new RunFailure(e.getMessage() + " (" + csv + ")");
            } finally {
                close();
            }
        }

        /** Stops perf if it still runs, its reader thread, and removes the FIFOs. Idempotent. */
        public void close() {
            if (process.isAlive()) {
                process.children().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
            }
            registry.remove(process);
            if (reader.isAlive()) {
                try {
                    ackFile.write((BYE + "\n").getBytes(StandardCharsets.US_ASCII));
                } catch (IOException e) {
                    System.err.println("    cannot stop the perf acknowledgement reader (" + log + "): " + e);
                }
            }
            try {
                reader.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            closeQuietly(ctlFile, log);
            closeQuietly(ackFile, log);
            try {
                Files.deleteIfExists(ctl);
                Files.deleteIfExists(ack);
            } catch (IOException e) {
                System.err.println("    cannot delete perf's control FIFOs (" + log + "): " + e);
            }
        }
    }
}
