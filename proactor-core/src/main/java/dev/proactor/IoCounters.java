package dev.proactor;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The I/O statistics of one direction of one channel (the seed's {@code IOStatistic}): operations started,
 * completed, failed and cancelled, and bytes moved. Input is read, accept, receive and file read; output is
 * write, connect, send, file write and transmit.
 *
 * <p><b>Threads.</b> {@code started} is written under the direction's own lock, which admission takes anyway;
 * the other counters by the thread dispatching the direction's completions, which is one at a time (the
 * direction's rule), so counting adds no synchronization. They are read from any thread without a lock. A
 * reader sees each counter whole, but the counters of one reading are not one atomic snapshot (an operation may
 * show as started and not yet ended).
 *
 * <p><b>Meaning.</b> An operation counts as started when it is submitted, and as ended just before its callback
 * runs (inside a callback the counters include the operation being reported): {@code completed} on success, {@code cancelled} when it ended by {@code cancel()}, {@code close()}
 * or a timeout ({@link dev.proactor.OperationCancelledException},
 * {@link java.nio.channels.AsynchronousCloseException}, {@link java.nio.channels.InterruptedByTimeoutException}),
 * {@code failed} for any other error. {@code bytes} adds the bytes of every finished operation, those a failed
 * write moved before its error included. Nothing is counted when the JVM runs with
 * {@code -Dproactor.ioStatistics=false}.
 */
public final class IoCounters {

    /** Read once per JVM; constant-folded, so the counting code disappears when off. */
    static final boolean ENABLED = !"false".equals(LibraryProperties.get("proactor.ioStatistics", null));

    private static final int STARTED = 0;
    private static final int COMPLETED = 1;
    private static final int FAILED = 2;
    private static final int CANCELLED = 3;
    private static final int BYTES = 4;

    // Opaque access: never torn, no fence on the writer's path; the writer holds the direction's lock.
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(long[].class);

    private final long[] slots = new long[5];

    IoCounters() {
    }

    /** One more operation submitted. Direction lock held (the only writer of this slot). */
    void countStarted() {
        add(STARTED, 1);
    }

    /** Classifies and counts an ended operation. The direction's dispatching thread (one at a time). */
    void countFinished(long bytes, Throwable error) {
        if (bytes > 0) {
            add(BYTES, bytes);
        }
        if (error == null) {
            add(COMPLETED, 1);
        } else if (OperationEvents.isCancellation(error)) {
            add(CANCELLED, 1);
        } else {
            add(FAILED, 1);
        }
    }

    private void add(int slot, long n) {
        SLOT.setOpaque(slots, slot, (long) SLOT.getOpaque(slots, slot) + n);
    }

    private long get(int slot) {
        return (long) SLOT.getOpaque(slots, slot);
    }

    /** Operations submitted. */
    public long started() {
        return get(STARTED);
    }

    /** Operations that ended successfully. */
    public long completed() {
        return get(COMPLETED);
    }

    /** Operations that ended with an error other than a cancellation. */
    public long failed() {
        return get(FAILED);
    }

    /** Operations ended by cancel, close or timeout. */
    public long cancelled() {
        return get(CANCELLED);
    }

    /** Bytes moved by finished operations. */
    public long bytes() {
        return get(BYTES);
    }

    @Override
    public String toString() {
        return "started=" + started() + " completed=" + completed() + " failed=" + failed() + " cancelled="
                + cancelled() + " bytes=" + bytes();
    }
}
