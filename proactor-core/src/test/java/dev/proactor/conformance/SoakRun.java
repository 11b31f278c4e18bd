package dev.proactor.conformance;

import dev.proactor.AsynchHandler;
import dev.proactor.Demultiplexor;
import dev.proactor.OpRead;
import dev.proactor.OpTimer;
import dev.proactor.OpWrite;
import dev.proactor.ProactorConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.stream.Stream;

/**
 * One soak run of one engine configuration: warm-up, baseline, the run with fault injection, drain, close, and
 * the checks. Every wait is bounded (a hang guard that reports, never a timing assertion).
 */
final class SoakRun {

    private static final long GUARD_MILLIS = 60_000;
    /** Ramp-up waits while it progresses: it fails after this long without any progress. */
    private static final long STALL_MILLIS = 60_000;
    /**
     * The drain likewise, with a longer patience: more than TCP's longest zero-window probe interval (120 s), so a
     * window the kernel reopens only by a probe cannot pass for a stuck connection.
     */
    private static final long DRAIN_STALL_MILLIS = 150_000;
    /** ... and in any case after this long (a last resort, far beyond any healthy run). */
    private static final long CAP_MILLIS = TimeUnit.MINUTES.toMillis(30);
    /** Descriptors the JVM may open on its own meanwhile (class loading, cgroup statistics, ...). */
    private static final long FD_SLACK = 8;
    /** Direct memory the JDK may keep on its own (e.g. a cached temporary buffer). */
    private static final long DIRECT_TOLERANCE = 1 << 20;
    private static final long[] TIMEOUTS_MILLIS = {0, 1, 50};

    private final SoakSettings settings;
    final SoakStats stats = new SoakStats();
    private final long startNanos = System.nanoTime();
    private String summary = "";

    SoakRun(SoakSettings settings) {
        this.settings = settings;
    }

    String summary() {
        return summary;
    }

    /** Runs the soak and returns the checks that failed (empty when all passed). */
    List<String> run() throws Exception {
        log("starting " + settings + "; repeat with -D" + SoakSettings.SEED + "=" + settings.seed());
        checkFdLimit();
        warmUp();
        settleGc();
        stats.fdBefore = countFds(false);
        stats.socketsBefore = countFds(true);
        stats.directBefore = DirectMemory.used();
        Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> {
            stats.threadDeaths.increment();
            stats.detail("thread died", t.getName() + " died of " + e);
            System.out.println("soak: thread " + t.getName() + " died of " + e);
        });
        try {
            soak();
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(previous);
        }
        settleResources();
        List<String> failed = checks();
        summary = summaryLine();
        log(summary);
        for (String f : failed) {
            log("FAILED " + f);
        }
        report(summary, failed);
        return failed;
    }

    // ---------------------------------------------------------------- the run

    private void soak() throws Exception {
        ProactorConfig config = settings.config();
        long seed = settings.seed();
        Demultiplexor demux = Demultiplexor.open(config).start();
        stats.poolConfigured = config.threads();
        PoolMonitor monitor = new PoolMonitor(demux);
        UserThreads users = null;
        SoakTimers timers = null;
        SoakFaults faults = null;
        SoakClients clients = null;
        boolean closed = false;
        try {
            monitor.start();
            SoakServer server = new SoakServer(demux, stats, SoakPattern.mix(seed + 11));
            clients = new SoakClients(settings.connections(), settings.clientThreads(), server.address(), server, stats,
                    SoakPattern.mix(seed + 12), settings.maxStallMillis(), settings.inFlightBytes());
            clients.start();
            stats.rampUpComplete = awaitProgress(clients::rampedUp,
                    () -> stats.accepted.sum() + stats.connectionsOpened.sum(), STALL_MILLIS);
            log("ramp-up " + (stats.rampUpComplete ? "complete" : "INCOMPLETE (no progress, hang guard)") + ": "
                    + clients.live() + " client connections, " + stats.accepted.sum() + " accepted");

            users = new UserThreads(demux, settings.userThreads(), seed);
            users.start();
            timers = new SoakTimers(demux, stats, seed);
            timers.start();
            faults = new SoakFaults(server, clients, stats, settings.faultsPerSecond(), seed);
            faults.start();

            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(settings.seconds());
            long nextProgress = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            for (long now = System.nanoTime(); end - now > 0; now = System.nanoTime()) {
                Thread.sleep(Math.max(1, Math.min(500, TimeUnit.NANOSECONDS.toMillis(end - now))));
                if (System.nanoTime() - nextProgress >= 0) {
                    nextProgress += TimeUnit.SECONDS.toNanos(10);
                    log("progress: echoed " + mib(stats.bytesEchoed.sum()) + ", faults " + stats.faultsTotal()
                            + ", client connections " + clients.live() + ", server connections "
                            + server.live.size() + ", pool threads alive " + demux.getLivePoolThreads() + "/"
                            + config.threads() + ", outstanding operations " + stats.neverCompleted());
                }
            }

            server.disableFaults();
            if (!faults.stop(GUARD_MILLIS)) {
                hang("fault injectors did not stop");
            }
            log("faults stopped: " + stats.faults() + "; draining " + clients.live() + " connections");
            clients.phase(SoakClients.Phase.DRAIN);
            if (!awaitProgress(clients::drained, () -> stats.bytesEchoed.sum() + stats.drained.sum(),
                    DRAIN_STALL_MILLIS)) {
                log("drain incomplete: no progress for " + DRAIN_STALL_MILLIS / 1000 + " s (hang guard)");
                dumpThreads();
            }
            stats.timersLost = timers.stopAndAwait(GUARD_MILLIS / 2);
            stats.failedChannels = server.failedByHandlerCount();
            List<SoakConnection> open = server.failedButOpen();
            stats.failedChannelsLeftOpen = open.size();
            for (SoakConnection c : open.subList(0, Math.min(5, open.size()))) {
                stats.detail("failed channel left open", c + " is open although its handler threw");
            }
            clients.phase(SoakClients.Phase.CLOSE_HALF);
            if (!await(clients::closedHalf, GUARD_MILLIS)) {
                hang("client threads did not close half their connections");
            }
            if (!users.stop(GUARD_MILLIS)) {
                hang("user threads did not leave handleEvents");
            }
            monitor.stopSampling();
            stats.poolLiveBeforeClose = demux.getLivePoolThreads();
            log("closing the demultiplexor with " + server.live.size() + " open server connections, "
                    + stats.neverCompleted() + " operations outstanding");
            closed = true;
            closeGuarded(demux);
            clients.phase(SoakClients.Phase.CLOSE_ALL);
            stats.clientsHung = !clients.join(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(GUARD_MILLIS));
        } finally {
            // Idempotent, bounded clean-up: it only has work left after an exception.
            monitor.stopSampling();
            if (faults != null) {
                faults.stop(GUARD_MILLIS);
            }
            if (users != null) {
                users.stop(GUARD_MILLIS);
            }
            if (timers != null) {
                timers.stopAndAwait(0);
            }
            if (!closed) {
                closeGuarded(demux);
            }
            if (clients != null) {
                clients.phase(SoakClients.Phase.CLOSE_ALL);
                clients.join(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(GUARD_MILLIS));
            }
        }
    }

    /** A short run without faults before the baseline, so lazily made JDK and engine resources are not leaks. */
    private void warmUp() throws Exception {
        SoakStats scratch = new SoakStats();
        Demultiplexor demux = Demultiplexor.open(settings.config()).start();
        try {
            SoakServer server = new SoakServer(demux, scratch, 1);
            server.disableFaults();
            SoakClients clients = new SoakClients(8, 1, server.address(), server, scratch, 2, 200, 1 << 20);
            clients.start();
            await(clients::rampedUp, GUARD_MILLIS);
            Thread.sleep(200);
            clients.phase(SoakClients.Phase.DRAIN);
            await(clients::drained, GUARD_MILLIS);
            clients.phase(SoakClients.Phase.CLOSE_HALF);
            await(clients::closedHalf, GUARD_MILLIS);
            demux.handleEvents(1, TimeUnit.MILLISECONDS);
            demux.newTimer(new SoakTimersWarmUp()).schedule(1, TimeUnit.MILLISECONDS);
            Thread.sleep(20);
            clients.phase(SoakClients.Phase.CLOSE_ALL);
            clients.join(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(GUARD_MILLIS));
        } finally {
            closeGuarded(demux);
        }
    }

    /** A timer handler for the warm-up. */
    private static final class SoakTimersWarmUp implements AsynchHandler {
        @Override
        public void onTimerCompleted(OpTimer op) {
        }

        @Override
        public void onReadCompleted(OpRead op) {
        }

        @Override
        public void onWriteCompleted(OpWrite op) {
        }
    }

    private void closeGuarded(Demultiplexor demux) throws InterruptedException {
        Thread closer = new Thread(demux::close, "soak-demux-close");
        closer.setDaemon(true);
        closer.start();
        closer.join(GUARD_MILLIS);
        if (closer.isAlive()) {
            stats.closeHung = true;
            hang("Demultiplexor.close() did not return");
        }
    }

    // ---------------------------------------------------------------- helper threads

    /** Samples {@link Demultiplexor#getLivePoolThreads()} until the demultiplexor is about to close. */
    private final class PoolMonitor extends Thread {
        private final Demultiplexor demux;
        private volatile boolean sampling = true;

        PoolMonitor(Demultiplexor demux) {
            super("soak-pool-monitor");
            setDaemon(true);
            this.demux = demux;
        }

        @Override
        public void run() {
            boolean reported = false;
            while (sampling) {
                int live = demux.getLivePoolThreads();
                stats.poolSamples++;
                if (live < stats.poolMinLive) {
                    stats.poolMinLive = live;
                }
                if (live != stats.poolConfigured && !reported) {
                    reported = true;
                    stats.detail("pool threads", live + " of " + stats.poolConfigured + " pool threads alive after "
                            + seconds() + " s");
                }
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        void stopSampling() throws InterruptedException {
            sampling = false;
            if (isAlive()) {
                join(GUARD_MILLIS);
            }
        }
    }

    /** User threads entering and leaving {@link Demultiplexor#handleEvents} with timeouts of 0, 1 and 50 ms. */
    private final class UserThreads {
        private final List<Thread> threads = new ArrayList<>();
        private volatile boolean running = true;

        UserThreads(Demultiplexor demux, int n, long seed) {
            for (int i = 0; i < n; i++) {
                SplittableRandom rnd = new SplittableRandom(SoakPattern.mix(seed + 100 + i));
                Thread t = new Thread(() -> {
                    while (running) {
                        int k = rnd.nextInt(TIMEOUTS_MILLIS.length);
                        try {
                            stats.userDispatched.add(demux.handleEvents(TIMEOUTS_MILLIS[k], TimeUnit.MILLISECONDS));
                        } catch (Throwable e) {
                            stats.escapedHandleEvents.increment();
                            stats.detail("escaped handleEvents", "handleEvents(" + TIMEOUTS_MILLIS[k] + " ms) threw "
                                    + e);
                        }
                        stats.handleEventsCalls[k].increment();
                        if (rnd.nextInt(4) == 0) {
                            try {
                                Thread.sleep(rnd.nextInt(5)); // away for a while
                            } catch (InterruptedException e) {
                                return;
                            }
                        }
                    }
                }, "soak-user-" + i);
                t.setDaemon(true);
                threads.add(t);
            }
        }

        void start() {
            for (Thread t : threads) {
                t.start();
            }
        }

        boolean stop(long guardMillis) throws InterruptedException {
            running = false;
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(guardMillis);
            for (Thread t : threads) {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            }
            for (Thread t : threads) {
                if (t.isAlive()) {
                    return false;
                }
            }
            return true;
        }
    }

    // ---------------------------------------------------------------- checks and report

    private List<String> checks() {
        List<String> failed = new ArrayList<>();
        check(failed, stats.bytesCorrupted.sum() == 0, "bytes corrupted: " + stats.bytesCorrupted.sum(),
                "corrupted");
        check(failed, stats.bufferAnomalies.sum() == 0, "buffer accounting anomalies: " + stats.bufferAnomalies.sum(),
                "buffer anomaly");
        check(failed, !stats.closeHung && stats.neverCompleted() == 0, "operations never completed: "
                + stats.neverCompleted() + " of " + stats.opsStarted.sum() + " started"
                + (stats.closeHung ? " (Demultiplexor.close() hung)" : ""), "never completed");
        check(failed, stats.duplicates.sum() == 0, "duplicate completions: " + stats.duplicates.sum(),
                "duplicate completion");
        check(failed, stats.overlaps.sum() == 0, "direction overlaps (callbacks of one direction concurrent): "
                + stats.overlaps.sum(), "direction overlap");
        check(failed, stats.outOfOrder.sum() == 0, "completions out of start order: " + stats.outOfOrder.sum(),
                "out of order");
        check(failed, stats.lostCancels.sum() == 0, "lost cancels (operations still pending after cancel() while "
                + "their peer was quiet): " + stats.lostCancels.sum() + " of " + stats.cancelProbeOps.sum()
                + " probed in " + stats.cancelProbes.sum() + " probes", "lost cancel");
        check(failed, stats.startThrew.sum() == 0, "operation starts that threw: " + stats.startThrew.sum(),
                "start threw");
        check(failed, stats.poolMinLive == stats.poolConfigured && stats.poolLiveBeforeClose == stats.poolConfigured,
                "pool threads alive: at least " + stats.poolMinLive + " and " + stats.poolLiveBeforeClose
                        + " before close, of " + stats.poolConfigured + " (threads died: " + stats.threadDeaths.sum()
                        + ")", "pool threads", "thread died");
        check(failed, stats.escapedHandleEvents.sum() == 0, "handler failures escaping handleEvents into user threads: "
                + stats.escapedHandleEvents.sum(), "escaped handleEvents");
        check(failed, stats.failedChannelsLeftOpen == 0, "channels left open after their handler threw: "
                + stats.failedChannelsLeftOpen + " of " + stats.failedChannels, "failed channel left open");
        check(failed, stats.fdAfter <= stats.fdBefore + FD_SLACK && stats.socketsAfter <= stats.socketsBefore,
                "file descriptors not back to baseline: " + stats.fdBefore + " -> " + stats.fdAfter + " (slack "
                        + FD_SLACK + "), sockets " + stats.socketsBefore + " -> " + stats.socketsAfter);
        check(failed, stats.directAfter <= stats.directBefore + DIRECT_TOLERANCE,
                "direct memory not back to baseline: " + stats.directBefore + " -> " + stats.directAfter
                        + " bytes (tolerance " + DIRECT_TOLERANCE + ")");
        check(failed, stats.bytesEchoed.sum() > 0, "no bytes echoed at all");
        check(failed, stats.rampUpComplete, "ramp-up: connections stopped being established and accepted before all "
                + settings.connections() + " were (no progress for " + STALL_MILLIS / 1000 + " s)");
        check(failed, stats.unexpectedDisconnects.sum() == 0, "connections ended without a fault (or failed to "
                + "connect): " + stats.unexpectedDisconnects.sum(), "unexpected disconnect");
        check(failed, stats.halfClosesTruncated.sum() == 0, "half-closed connections that did not get every byte "
                + "back before end-of-stream: " + stats.halfClosesTruncated.sum(), "half-close truncated");
        check(failed, stats.drainIncomplete.sum() == 0 && stats.noProgress.sum() == 0, "connections without a fault "
                + "that did not get all their bytes back at the end (no progress for " + DRAIN_STALL_MILLIS / 1000
                + " s): " + stats.drainIncomplete.sum() + " (without any progress at all: " + stats.noProgress.sum()
                + ")", "drain incomplete");
        check(failed, stats.timerViolations.sum() == 0 && stats.timersLost == 0, "timers: " + stats.timerViolations.sum()
                + " violations, " + stats.timersLost + " scheduled timers never fired", "timer violation");
        check(failed, !stats.clientsHung && stats.clientThreadFailures.sum() == 0, "client threads: hung "
                + stats.clientsHung + ", failed " + stats.clientThreadFailures.sum(), "client thread failure");
        return failed;
    }

    private void check(List<String> failed, boolean ok, String what, String... detailKinds) {
        if (ok) {
            return;
        }
        StringBuilder b = new StringBuilder(what);
        for (String kind : detailKinds) {
            for (String d : stats.details(kind)) {
                b.append("\n      ").append(d);
            }
        }
        failed.add(b.toString());
    }

    private String summaryLine() {
        ProactorConfig c = settings.config();
        return "SOAK engine=" + c.engine() + " wait=" + (c.waitStrategy() == null ? "default" : c.waitStrategy())
                + " leader=" + c.leader().configName() + " threads=" + c.threads() + " seed=" + settings.seed()
                + " seconds=" + settings.seconds() + " connections=" + settings.connections()
                + " opened=" + stats.connectionsOpened.sum() + " accepted=" + stats.accepted.sum()
                + " | faults: " + stats.faults()
                + " | bytesSent=" + stats.bytesSent.sum() + " bytesEchoed=" + stats.bytesEchoed.sum()
                + " corrupted=" + stats.bytesCorrupted.sum() + " bufferAnomalies=" + stats.bufferAnomalies.sum()
                + " | opsStarted=" + stats.opsStarted.sum() + " neverCompleted=" + stats.neverCompleted()
                + " duplicates=" + stats.duplicates.sum() + " overlaps=" + stats.overlaps.sum()
                + " outOfOrder=" + stats.outOfOrder.sum() + " startThrew=" + stats.startThrew.sum()
                + " cancelled(read/write/accept)=" + stats.cancelledReads.sum() + "/" + stats.cancelledWrites.sum()
                + "/" + stats.cancelledAccepts.sum()
                + " | poolThreads min=" + (stats.poolMinLive == Integer.MAX_VALUE ? "-" : stats.poolMinLive)
                + " beforeClose=" + stats.poolLiveBeforeClose + "/" + stats.poolConfigured
                + " threadDeaths=" + stats.threadDeaths.sum() + " closeHung=" + stats.closeHung
                + " escapedHandleEvents=" + stats.escapedHandleEvents.sum()
                + " handleEvents(0/1/50ms)=" + stats.handleEventsCalls[0].sum() + "/"
                + stats.handleEventsCalls[1].sum() + "/" + stats.handleEventsCalls[2].sum()
                + " userDispatched=" + stats.userDispatched.sum()
                + " failedChannelsOpen=" + stats.failedChannelsLeftOpen + "/" + stats.failedChannels
                + " | unexpectedDisconnects=" + stats.unexpectedDisconnects.sum()
                + " serverFaultDisconnects=" + stats.serverFaultDisconnects.sum()
                + " halfCloses(ok/truncated)=" + stats.halfClosesCompleted.sum() + "/" + stats.halfClosesTruncated.sum()
                + " drained=" + stats.drained.sum() + " drainIncomplete=" + stats.drainIncomplete.sum()
                + " noProgress=" + stats.noProgress.sum()
                + " | timers scheduled=" + stats.timersScheduled.sum() + " fired=" + stats.timersFired.sum()
                + " cancelled=" + stats.timersCancelled.sum() + " violations=" + stats.timerViolations.sum()
                + " lost=" + stats.timersLost
                + " | fd " + stats.fdBefore + "->" + stats.fdAfter + " sockets " + stats.socketsBefore + "->"
                + stats.socketsAfter + " (limit " + stats.fdLimit + ")"
                + " directMemory " + stats.directBefore + "->" + stats.directAfter
                + " | serverErrors " + stats.serverErrorSummary();
    }

    private void report(String line, List<String> failed) {
        Path target = Path.of("target");
        if (!Files.isDirectory(target)) {
            return;
        }
        StringBuilder b = new StringBuilder(line).append('\n');
        for (String f : failed) {
            b.append("  FAILED ").append(f).append('\n');
        }
        try {
            Files.writeString(target.resolve("soak-summary.txt"), b, StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            log("could not write target/soak-summary.txt: " + e);
        }
    }

    // ---------------------------------------------------------------- resources

    private void checkFdLimit() throws IOException {
        long[] limits = fdLimits();
        if (limits == null) {
            return; // no /proc: nothing to check
        }
        stats.fdLimit = limits[0];
        long needed = 2L * settings.connections() + 512;
        if (limits[0] < needed) {
            throw new AssertionError("the soak with " + settings.connections() + " connections needs about " + needed
                    + " file descriptors (2 per connection: the client's and the server's socket, plus 512 for the"
                    + " JVM and the engine), but this process may open only " + limits[0] + " (ulimit -n; hard limit "
                    + (limits[1] == Long.MAX_VALUE ? "unlimited" : limits[1]) + "). Raise it before running Maven,"
                    + " e.g. `ulimit -n " + needed + "` (above the hard limit: as root, or in"
                    + " /etc/security/limits.conf), or run fewer connections with -D" + SoakSettings.CONNECTIONS
                    + "=N.");
        }
    }

    /** {soft, hard} limit of open files from /proc/self/limits, or null. */
    private static long[] fdLimits() throws IOException {
        Path limits = Path.of("/proc/self/limits");
        if (!Files.isReadable(limits)) {
            return null;
        }
        for (String line : Files.readAllLines(limits)) {
            if (line.startsWith("Max open files")) {
                String[] f = line.substring("Max open files".length()).trim().split("\\s+");
                return new long[] {parseLimit(f[0]), parseLimit(f[1])};
            }
        }
        return null;
    }

    private static long parseLimit(String s) {
        return s.equals("unlimited") ? Long.MAX_VALUE : Long.parseLong(s);
    }

    /** Open descriptors of this process (all, or sockets only); -1 without /proc. */
    private static long countFds(boolean socketsOnly) throws IOException {
        Path fds = Path.of("/proc/self/fd");
        if (!Files.isDirectory(fds)) {
            return -1;
        }
        try (Stream<Path> s = Files.list(fds)) {
            return s.filter(fd -> {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    return !socketsOnly || target.startsWith("socket:");
                } catch (IOException e) {
                    return false; // closed while listing (e.g. the listing's own descriptor)
                }
            }).count();
        }
    }

    private static void settleGc() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(50);
        }
    }

    /** Waits (bounded) for descriptors and direct memory to come back to the baseline, then records them. */
    private void settleResources() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        do {
            System.gc();
            Thread.sleep(100);
            stats.fdAfter = countFds(false);
            stats.socketsAfter = countFds(true);
            stats.directAfter = DirectMemory.used();
        } while ((stats.fdAfter > stats.fdBefore + FD_SLACK || stats.socketsAfter > stats.socketsBefore
                || stats.directAfter > stats.directBefore + DIRECT_TOLERANCE) && System.nanoTime() - deadline < 0);
    }

    // ---------------------------------------------------------------- utilities

    private static boolean await(BooleanSupplier condition, long guardMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(guardMillis);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.sleep(10);
        }
        return true;
    }

    /**
     * Waits for {@code condition} as long as {@code progress} keeps changing: a hang guard that does not depend on
     * speed. Returns false after {@code stallMillis} without progress (or the {@link #CAP_MILLIS} last resort).
     */
    private static boolean awaitProgress(BooleanSupplier condition, LongSupplier progress, long stallMillis)
            throws InterruptedException {
        long cap = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CAP_MILLIS);
        long last = progress.getAsLong();
        long lastChange = System.nanoTime();
        while (!condition.getAsBoolean()) {
            long now = System.nanoTime();
            long p = progress.getAsLong();
            if (p != last) {
                last = p;
                lastChange = now;
            } else if (now - lastChange > TimeUnit.MILLISECONDS.toNanos(stallMillis) || now - cap > 0) {
                return false;
            }
            Thread.sleep(10);
        }
        return true;
    }

    private void hang(String what) {
        log("HANG GUARD: " + what + " within " + GUARD_MILLIS / 1000 + " s");
        stats.detail("hang", what);
        dumpThreads();
    }

    private static void dumpThreads() {
        StringBuilder b = new StringBuilder("thread dump:\n");
        for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
            b.append("  \"").append(e.getKey().getName()).append("\" ").append(e.getKey().getState()).append('\n');
            for (StackTraceElement s : e.getValue()) {
                b.append("      at ").append(s).append('\n');
            }
        }
        System.out.println(b);
    }

    private long seconds() {
        return TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startNanos);
    }

    private void log(String what) {
        System.out.println("soak [" + settings.label() + ", " + seconds() + " s] " + what);
    }

    private static String mib(long bytes) {
        return (bytes >> 20) + " MiB";
    }
}
