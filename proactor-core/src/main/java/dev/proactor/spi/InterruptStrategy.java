package dev.proactor.spi;

/**
 * Wakes the leader thread out of {@link WaitStrategy#waitFor(long)} (seed §10).
 *
 * <p>{@link #interrupt()} may be called from any thread at any time, also when no thread is waiting; an
 * interrupt that arrives before the wait makes the next wait return promptly. The notification methods are
 * called by the leader thread only.
 */
public interface InterruptStrategy {

    /** Makes the current or next {@link WaitStrategy#waitFor(long)} return soon. Thread-safe, never blocks. */
    void interrupt();

    /** Called by a thread that has just taken leadership, before its first wait. */
    default void onLeaderActivated() {
    }

    /** Called by the leader just before it releases leadership. */
    default void onLeaderDeactivated() {
    }
}
