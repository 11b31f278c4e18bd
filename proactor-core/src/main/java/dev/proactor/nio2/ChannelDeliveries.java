package dev.proactor.nio2;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The operations of one NIO.2 channel that have begun and whose outcome has not been delivered yet (the handler has
 * not returned, or the future is not completed), and what happens once the channel is closed and none is left: the
 * channel leaves its group ({@link ProactorChannelGroup#deregister}), which may terminate the group. So a group
 * terminates (and closes its demultiplexor) only after every handler of its channels ran on the group's threads,
 * as the JDK's groups run the handlers of what a close ended before their threads exit; never on the thread of a
 * {@code close()} or {@code shutdownNow()}, and never inside one.
 *
 * <p>Thread-safe and lock-free: one counter per channel, so operations of different channels share nothing.
 */
final class ChannelDeliveries {

    private static final int CLOSED = 1 << 30;
    private static final int IDLE_RUN = 1 << 29;
    private static final int COUNT = IDLE_RUN - 1;

    /** Operations begun and not delivered, with the {@link #CLOSED} and {@link #IDLE_RUN} bits. */
    private final AtomicInteger state = new AtomicInteger();
    private final Runnable whenClosedAndIdle;

    /** Runs {@code whenClosedAndIdle} once, when the channel is closed and no operation is left undelivered. */
    ChannelDeliveries(Runnable whenClosedAndIdle) {
        this.whenClosedAndIdle = whenClosedAndIdle;
    }

    /** An operation began (its slot was claimed). */
    void begin() {
        state.incrementAndGet();
    }

    /** An operation's outcome was delivered (its handler returned), or it was abandoned before it started. */
    void end() {
        if ((state.decrementAndGet() & COUNT) == 0) {
            runIfClosedAndIdle();
        }
    }

    /** The channel closed; operations it ended are still to be delivered. Idempotent. */
    void close() {
        state.getAndUpdate(s -> s | CLOSED);
        runIfClosedAndIdle();
    }

    private void runIfClosedAndIdle() {
        int s = state.get();
        while ((s & CLOSED) != 0 && (s & (COUNT | IDLE_RUN)) == 0) {
            if (state.compareAndSet(s, s | IDLE_RUN)) {
                whenClosedAndIdle.run();
                return;
            }
            s = state.get();
        }
    }

    @Override
    public String toString() {
        int s = state.get();
        return (s & COUNT) + " undelivered" + ((s & CLOSED) != 0 ? ", closed" : "");
    }
}
