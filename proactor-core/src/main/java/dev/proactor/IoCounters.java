package dev.proactor;

import dev.proactor.internal.IoCounts;

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

    private final IoCounts counts;

    IoCounters(IoCounts counts) {
        this.counts = counts;
    }

    /** Operations submitted. */
    public long started() {
        return counts.started();
    }

    /** Operations that ended successfully. */
    public long completed() {
        return counts.completed();
    }

    /** Operations that ended with an error other than a cancellation. */
    public long failed() {
        return counts.failed();
    }

    /** Operations ended by cancel, close or timeout. */
    public long cancelled() {
        return counts.cancelled();
    }

    /** Bytes moved by finished operations. */
    public long bytes() {
        return counts.bytes();
    }

    @Override
    public String toString() {
        return counts.toString();
    }
}
