package dev.proactor.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The counters behind {@link dev.proactor.IoCounters}, its view: one per direction of a channel, written by the
 * direction (starts, under its lock) and by the thread dispatching its completions (ends).
 */
public final class IoCounts {

    /** Read once per JVM; constant-folded, so the counting code disappears when off. */
    public static final boolean ENABLED = !"false".equals(LibraryProperties.get("proactor.ioStatistics", null));

    private static final int STARTED = 0;
    private static final int COMPLETED = 1;
    private static final int FAILED = 2;
    private static final int CANCELLED = 3;
    private static final int BYTES = 4;

    // Opaque access: never torn, no fence on the writer's path; the writer holds the direction's lock.
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(long[].class);

    private final long[] slots = new long[5];

    IoCounts() {
    }

    /** One more operation submitted. Direction lock held (the only writer of this slot). */
    public void countStarted() {
        add(STARTED, 1);
    }

    /** Classifies and counts an ended operation. The direction's dispatching thread (one at a time). */
    public void countFinished(long bytes, Throwable error) {
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
