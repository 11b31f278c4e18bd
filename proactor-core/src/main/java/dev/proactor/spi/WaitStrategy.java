package dev.proactor.spi;

import java.io.IOException;

/**
 * How the leader of a processor waits for completions of its engine (seed §9).
 *
 * <p>Threading: {@link #prepareToWait()}, {@link #waitFor(long)} and {@link #nextCompleted()} are called only by
 * the processor's current leader, one thread at a time, in that order; no other thread calls them while a
 * leader holds the processor. {@link #interruptStrategy()} may be called from any thread.
 */
public interface WaitStrategy {

    /** Short name of the strategy as configured ({@code epoll}, {@code poll}, {@code busy-poll}, ...). */
    String name();

    /** Last call before waiting; lets the strategy build its wait parameters. Leader thread only. */
    default void prepareToWait() {
    }

    /**
     * Waits for completions.
     *
     * @param timeoutNanos longest time to wait: negative waits until a completion or an interrupt, zero only
     *                     polls
     * @return how many requests completed (they are then returned by {@link #nextCompleted()})
     * @throws IOException if the wait itself failed; the processor logs it and retries
     */
    int waitFor(long timeoutNanos) throws IOException;

    /** The next completed request found by the last wait, or {@code null} when there are no more. */
    IoRequest nextCompleted();

    /**
     * The calling thread, one of the demultiplexor's own that led this strategy's processor, will not call
     * {@link #waitFor(long)} again soon: it is about to run handlers that may block, to wait as a follower, or to
     * leave its loop. A strategy that lets other threads leave work to a leader of the demultiplexor's own (the
     * io_uring engine: entries to submit) does that work now or hands it on. Called by the processor after every
     * turn, or, when the pool threads' handlers return promptly ({@code proactor.promptHandlers}), only when such a
     * thread stops dispatching; may be called while another thread leads. Default: nothing.
     */
    default void leaderAway() {
    }

    /** The way to interrupt {@link #waitFor(long)}. */
    InterruptStrategy interruptStrategy();
}
