package dev.proactor.examples.http;

import dev.proactor.AsynchHandler;
import dev.proactor.Demultiplexor;
import dev.proactor.OpTimer;
import java.util.concurrent.TimeUnit;

/**
 * The one reusable timer of an {@link HttpConnection}, armed again for each phase (idle, request head, response,
 * linger), and the rule for trusting its firings: a firing counts only if it is the latest arming and its deadline
 * has passed, since a callback that began just before a {@code cancel} or re-{@code schedule} still runs.
 *
 * <p><b>Threads.</b> Not thread-safe: called only by the connection, while it holds its own lock (from its
 * callbacks on pool threads, or from {@link HttpConnection#drain()} on the thread stopping the server). The
 * firing itself is dispatched to the connection's {@code onTimerCompleted}.
 *
 * <p><b>Errors.</b> {@link #arm} returns {@code false} when the demultiplexor is closing (server shutdown), so
 * that the connection closes instead of starting anything more; any other failure to schedule is a bug and is
 * thrown.
 */
final class ConnectionTimer {

    private final Demultiplexor demultiplexor;
    private final OpTimer timer;
    private boolean armed;
    /** When the scheduled timer is due ({@link System#nanoTime()}); an earlier firing is a stale one. */
    private long deadline;

    /** Makes the timer; its firings go to {@code handler}'s {@code onTimerCompleted}. */
    ConnectionTimer(Demultiplexor demultiplexor, AsynchHandler handler) {
        this.demultiplexor = demultiplexor;
        this.timer = demultiplexor.newTimer(handler);
    }

    /**
     * (Re)arms the timer to fire in {@code nanos}; the deadline is taken before scheduling so that the firing of
     * this arming always finds it passed. Returns false if the demultiplexor is closing.
     *
     * @throws IllegalStateException if scheduling fails while the demultiplexor is open
     */
    boolean arm(long nanos) {
        deadline = System.nanoTime() + nanos;
        armed = true;
        try {
            timer.schedule(nanos, TimeUnit.NANOSECONDS);
            return true;
        } catch (IllegalStateException e) {
            if (!demultiplexor.isClosed()) {
                throw e;
            }
            return false;
        }
    }

    /**
     * Whether a firing seen at {@code now} ({@link System#nanoTime()}) is to be acted on: false if the timer was
     * cancelled or re-armed after this firing began (a later firing will decide).
     */
    boolean isDue(long now) {
        return armed && now - deadline >= 0;
    }

    /** Stops the timer; a firing already under way is no longer {@link #isDue due}. */
    void cancel() {
        armed = false;
        timer.cancel();
    }
}
