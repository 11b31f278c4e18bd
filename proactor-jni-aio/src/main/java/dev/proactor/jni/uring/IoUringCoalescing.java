package dev.proactor.jni.uring;

/**
 * Completion coalescing's choice, wait by wait: whether the owner's next blocking wait holds out for a batch
 * ({@code proactor.uring.batchWaitMicros}, {@link IoUringFeatures#batchWaitMicros()}) or returns at the first
 * completion as it does without coalescing.
 *
 * <p>Holding out pays only when completions come often enough to fill a batch within the bound; with a few
 * connections in ping-pong it only delays each answer by the whole bound (measured: one session at a quarter of its
 * messages per second, and 1.4 times the CPU per message). So a wait holds out while the last wait that held out
 * found at least {@link #threshold} completions (a quarter of the batch, at least 2), and stops at the first that
 * found fewer. It starts off; a plain wait that finds that many starts it, and so does a probe every
 * {@link #PROBE_EVERY_WAITS} plain waits: arrivals spread over time seldom wake a plain wait to a full batch,
 * since the wait returns at the first of them. The cost of a probe under a light load is one wait held out for the
 * bound per {@value #PROBE_EVERY_WAITS} waits.
 *
 * <p>Threads: the owner's only (the thread that waits), no lock.
 */
final class IoUringCoalescing {

    /** Plain waits between two probes, while holding out is off. */
    static final int PROBE_EVERY_WAITS = 1024;

    private final int threshold;
    /** Off at start: a first wait with nothing in flight would hold out the whole bound for nothing. */
    private boolean holding;
    private int plainWaits;

    /** @param batchCompletions the completions a wait that holds out asks for (at least 1) */
    IoUringCoalescing(int batchCompletions) {
        this.threshold = Math.max(2, batchCompletions / 4);
    }

    /** Whether the next blocking wait holds out for a batch (it then reports with {@code heldOut} true). */
    boolean holdOut() {
        return holding || plainWaits >= PROBE_EVERY_WAITS;
    }

    /**
     * A blocking wait returned.
     *
     * @param heldOut whether it held out for a batch (as {@link #holdOut()} said, and no shorter bound cut it)
     * @param found   the completions it found
     */
    void waited(boolean heldOut, int found) {
        boolean enough = found >= threshold;
        if (heldOut) {
            holding = enough;
            plainWaits = 0;
        } else if (enough) {
            holding = true;
        } else {
            plainWaits++;
        }
    }

    /** The completions a wait must find for the next to hold out. */
    int threshold() {
        return threshold;
    }
}
