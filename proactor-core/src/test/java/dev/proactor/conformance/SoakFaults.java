package dev.proactor.conformance;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The fault injectors: one foreign thread per family of faults, each with its own random stream derived from the
 * run's seed, injecting at its share of the configured rate (random intervals around the mean).
 *
 * <table>
 * <caption>families and their shares of the rate</caption>
 * <tr><td>client faults (reset 10, half-close 10, stall 15)</td><td>35 %</td></tr>
 * <tr><td>server close from a foreign thread</td><td>12 %</td></tr>
 * <tr><td>cancel storms from a foreign thread</td><td>23 %</td></tr>
 * <tr><td>cancel probes (below)</td><td>10 %</td></tr>
 * <tr><td>handler failures (RuntimeException 10, Error 5, StackOverflowError 5)</td><td>20 %, at most 2/s</td></tr>
 * </table>
 *
 * <p>A cancel probe makes a random client connection quiet (it neither sends nor reads), then, for up to 64
 * rounds: takes the operations outstanding on its server connection whose starting call has returned (waiting
 * a moment for the handler to start new ones after the previous round), calls {@code cancel()} and waits for
 * each of them to complete. With a quiet peer nothing else can complete them, so one still pending after the
 * hang guard is a lost cancel. Then the client goes on and the echo must continue intact.
 */
final class SoakFaults {

    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean running = true;

    /** How long a probe waits for the cancelled operations of a quiet connection (a hang guard). */
    static final long PROBE_GUARD_MILLIS = 60_000;

    SoakFaults(SoakServer server, SoakClients clients, SoakStats stats, double faultsPerSecond, long seed) {
        add("soak-faults-client", faultsPerSecond * 0.35, seed + 1, rnd -> {
            int k = rnd.nextInt(35);
            if (k < 10) {
                clients.reset(rnd);
            } else if (k < 20) {
                clients.halfClose(rnd);
            } else {
                clients.stall(rnd);
            }
        });
        add("soak-faults-close", faultsPerSecond * 0.12, seed + 2, server::closeRandom);
        add("soak-faults-cancel", faultsPerSecond * 0.23, seed + 3, server::cancelStorm);
        add("soak-faults-probe", faultsPerSecond * 0.10, seed + 6, rnd -> cancelProbe(server, clients, stats, rnd));
        // at most 2 handler failures a second: each one logs a stack trace (the framework's ERROR line)
        add("soak-faults-handler", Math.min(2, faultsPerSecond * 0.20), seed + 4, rnd -> {
            int k = rnd.nextInt(20);
            server.plantHandlerFault(rnd, k < 10 ? SoakConnection.HandlerFault.RUNTIME
                    : k < 15 ? SoakConnection.HandlerFault.ERROR : SoakConnection.HandlerFault.STACK_OVERFLOW);
        });
    }

    private static void cancelProbe(SoakServer server, SoakClients clients, SoakStats stats, SplittableRandom rnd) {
        SoakClients.Conn client;
        try {
            client = clients.quiet(rnd, PROBE_GUARD_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        if (client == null) {
            return;
        }
        try {
            SoakConnection c = server.connectionOf(client.local, client.connectStarted);
            if (c == null) {
                return;
            }
            stats.cancelProbes.increment();
            int rounds = 1 + rnd.nextInt(64);
            for (int round = 0; round < rounds && !c.isDead(); round++) {
                // The handler starts new operations from the callbacks of the cancelled ones: catch them at once.
                List<OpLedger.Token> in = c.input.submittedOutstanding();
                List<OpLedger.Token> out = c.output.submittedOutstanding();
                long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
                for (long spins = 0; in.isEmpty() && out.isEmpty() && System.nanoTime() - until < 0; spins++) {
                    if (spins < 10_000) {
                        Thread.onSpinWait();
                    } else {
                        sleepNanos(TimeUnit.MILLISECONDS.toNanos(1));
                    }
                    in = c.input.submittedOutstanding();
                    out = c.output.submittedOutstanding();
                }
                if (in.isEmpty() && out.isEmpty()) {
                    break;
                }
                c.channel.cancel();
                stats.faultCancelCalls.increment();
                stats.cancelProbeOps.add(in.size() + out.size());
                long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PROBE_GUARD_MILLIS);
                while (System.nanoTime() - deadline < 0 && (pending(c.input, in) + pending(c.output, out)) > 0) {
                    sleepNanos(TimeUnit.MILLISECONDS.toNanos(1));
                }
                if (report(stats, c, c.input, in) + report(stats, c, c.output, out) > 0) {
                    break;
                }
            }
        } finally {
            clients.release(client);
        }
    }

    private static int pending(OpLedger ledger, List<OpLedger.Token> tokens) {
        int n = 0;
        for (OpLedger.Token t : tokens) {
            if (ledger.isOutstanding(t)) {
                n++;
            }
        }
        return n;
    }

    private static int report(SoakStats stats, SoakConnection c, OpLedger ledger, List<OpLedger.Token> tokens) {
        int lost = 0;
        for (OpLedger.Token t : tokens) {
            if (ledger.isOutstanding(t)) {
                lost++;
                stats.lostCancels.increment();
                stats.detail("lost cancel", ledger + ": operation #" + t.seq + " (started, its call returned) still"
                        + " pending " + PROBE_GUARD_MILLIS / 1000 + " s after cancel(), its peer quiet; " + c.describe());
            }
        }
        return lost;
    }

    private void add(String name, double perSecond, long seed, Consumer<SplittableRandom> fault) {
        SplittableRandom rnd = new SplittableRandom(SoakPattern.mix(seed));
        double meanNanos = perSecond <= 0 ? Double.MAX_VALUE : TimeUnit.SECONDS.toNanos(1) / perSecond;
        Thread t = new Thread(() -> {
            while (running) {
                // exponential intervals: a Poisson stream of faults at the family's rate
                long pause = (long) Math.min(-Math.log(1 - rnd.nextDouble()) * meanNanos, 5e9);
                long until = System.nanoTime() + pause;
                for (long left = pause; running && left > 0; left = until - System.nanoTime()) {
                    sleepNanos(Math.min(left, TimeUnit.MILLISECONDS.toNanos(50)));
                }
                if (running) {
                    fault.accept(rnd);
                }
            }
        }, name);
        t.setDaemon(true);
        threads.add(t);
    }

    private static void sleepNanos(long nanos) {
        try {
            TimeUnit.NANOSECONDS.sleep(nanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    void start() {
        for (Thread t : threads) {
            t.start();
        }
    }

    /** Stops injecting; returns whether every injector thread ended within the hang guard. */
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
