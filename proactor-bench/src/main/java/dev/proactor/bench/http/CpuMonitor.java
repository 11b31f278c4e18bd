package dev.proactor.bench.http;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * CPU use during a wrk run, from two snapshots of {@code /proc} taken while wrk runs (after the
 * first tenth of the run, at most 0.5 s, and as long before its end): the server's process and
 * its descendants (nginx's workers), wrk itself, and the user time of every other process
 * (machine user time minus both), each in percent of one core.
 */
final class CpuMonitor {
    private static final Path PROC = Path.of("/proc");

    /**
     * CPU use over the sampled interval; NaN when unknown.
     *
     * @param serverPct    server process tree, percent of one core
     * @param clientPct    wrk, percent of one core
     * @param otherUserPct user time of all other processes, percent of one core
     */
    record Usage(double serverPct, double clientPct, double otherUserPct) {
        static final Usage UNKNOWN = new Usage(Double.NaN, Double.NaN, Double.NaN);
    }

    private CpuMonitor() {
    }

    /**
     * Samples while wrk runs; returns when the second snapshot is taken.
     *
     * @param serverPid server process id
     * @param wrk       the running wrk
     * @param seconds   wrk's duration
     * @return the usage
     * @throws IOException          when {@code /proc} cannot be read (wrk having ended early included)
     * @throws InterruptedException when interrupted
     */
    static Usage measure(long serverPid, Process wrk, int seconds) throws IOException, InterruptedException {
        long lead = Math.min(500, seconds * 100L);
        Thread.sleep(lead);
        Snapshot a = Snapshot.take(serverPid, wrk.pid());
        Thread.sleep(Math.max(1, seconds * 1000L - 2 * lead));
        if (!wrk.isAlive()) {
            throw new IOException("wrk ended before the second CPU sample");
        }
        Snapshot b = Snapshot.take(serverPid, wrk.pid());
        double tickPerCore = (double) (b.machine.totalTicks() - a.machine.totalTicks()) / b.machine.cpus();
        if (tickPerCore <= 0) {
            return Usage.UNKNOWN;
        }
        long serverTicks = b.serverTicks - a.serverTicks;
        long wrkTicks = b.wrk.userTicks() + b.wrk.sysTicks() - a.wrk.userTicks() - a.wrk.sysTicks();
        long otherUser = (b.machine.userTicks() - a.machine.userTicks()) - (b.serverUserTicks - a.serverUserTicks)
                - (b.wrk.userTicks() - a.wrk.userTicks());
        return new Usage(100.0 * serverTicks / tickPerCore, 100.0 * wrkTicks / tickPerCore,
                100.0 * Math.max(0, otherUser) / tickPerCore);
    }

    /** Counters at one instant. */
    private static final class Snapshot {
        private final ProcStat.Machine machine;
        private final long serverTicks;
        private final long serverUserTicks;
        private final ProcStat.Task wrk;

        private Snapshot(ProcStat.Machine machine, long serverTicks, long serverUserTicks, ProcStat.Task wrk) {
            this.machine = machine;
            this.serverTicks = serverTicks;
            this.serverUserTicks = serverUserTicks;
            this.wrk = wrk;
        }

        static Snapshot take(long serverPid, long wrkPid) throws IOException {
            ProcStat.Machine machine = ProcStat.machine(
                    Files.readAllLines(PROC.resolve("stat"), StandardCharsets.US_ASCII));
            Map<Long, ProcStat.Task> tasks = readTasks();
            ProcStat.Task wrk = tasks.get(wrkPid);
            if (wrk == null) {
                throw new IOException("wrk (pid " + wrkPid + ") is not running");
            }
            long ticks = 0;
            long user = 0;
            for (long pid : treeOf(serverPid, tasks)) {
                ProcStat.Task t = tasks.get(pid);
                ticks += t.userTicks() + t.sysTicks();
                user += t.userTicks();
            }
            return new Snapshot(machine, ticks, user, wrk);
        }

        private static Map<Long, ProcStat.Task> readTasks() throws IOException {
            Map<Long, ProcStat.Task> tasks = new HashMap<>();
            try (DirectoryStream<Path> dirs = Files.newDirectoryStream(PROC, p -> isNumeric(p.getFileName().toString()))) {
                for (Path dir : dirs) {
                    String line;
                    try {
                        line = Files.readString(dir.resolve("stat"), StandardCharsets.UTF_8);
                    } catch (NoSuchFileException e) {
                        continue; // ended between listing and opening
                    } catch (IOException e) {
                        if (Files.exists(dir)) {
                            throw e;
                        }
                        continue; // ended while being read (ESRCH)
                    }
                    ProcStat.Task t = ProcStat.task(line.trim());
                    tasks.put(t.pid(), t);
                }
            }
            return tasks;
        }

        private static Set<Long> treeOf(long root, Map<Long, ProcStat.Task> tasks) {
            Set<Long> tree = new HashSet<>();
            if (!tasks.containsKey(root)) {
                return tree;
            }
            tree.add(root);
            List<Long> frontier = new ArrayList<>(List.of(root));
            while (!frontier.isEmpty()) {
                List<Long> next = new ArrayList<>();
                for (ProcStat.Task t : tasks.values()) {
                    if (frontier.contains(t.ppid()) && tree.add(t.pid())) {
                        next.add(t.pid());
                    }
                }
                frontier = next;
            }
            return tree;
        }

        private static boolean isNumeric(String name) {
            for (int i = 0; i < name.length(); i++) {
                if (!Character.isDigit(name.charAt(i))) {
                    return false;
                }
            }
            return !name.isEmpty();
        }
    }
}
