package dev.proactor;

import dev.proactor.internal.LatencyRecorder;

/**
 * What a demultiplexor records when {@code proactor.dispatchStatistics} is on (off by default), to see whether
 * sessions are served fairly:
 * <ul>
 *   <li>{@link #queueWait()}: how long each completion waited in the completion queue, from the moment it was
 *       queued (found ready by a poll, completed at start, posted, or a timer due) to the start of its
 *       callback;</li>
 *   <li>{@link #pollGap()}: how long the I/O went unwatched between two waits of a processor's leader (while
 *       the leader dispatches or other threads hold the queue, readiness that needs a poll is not seen).</li>
 * </ul>
 * A session starved by others shows as a long tail of the poll gap; a deep queue as a long tail of queue wait.
 * Thread-safe; reading allocates, recording does not.
 */
public final class DispatchStatistics {

    private final LatencyRecorder queueWait;
    private final LatencyRecorder pollGap;

    DispatchStatistics(LatencyRecorder queueWait, LatencyRecorder pollGap) {
        this.queueWait = queueWait;
        this.pollGap = pollGap;
    }

    /** Time from queued to dispatched, per completion. */
    public LatencySnapshot queueWait() {
        return queueWait.snapshot();
    }

    /** Time between the end of one leader wait and the start of the next, per wait. */
    public LatencySnapshot pollGap() {
        return pollGap.snapshot();
    }

    /** Forgets what was recorded (e.g. after a warm-up). */
    public void reset() {
        queueWait.reset();
        pollGap.reset();
    }

    @Override
    public String toString() {
        return "queue wait: " + queueWait() + "; poll gap: " + pollGap();
    }
}
