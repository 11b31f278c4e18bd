package dev.proactor.filepool;

import dev.proactor.spi.InterruptStrategy;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.WaitStrategy;
import java.util.ArrayDeque;

/**
 * The file engine's wait strategy {@value #NAME}: workers add finished requests, the processor's leader sleeps
 * in {@link #waitFor(long)} until there is one (or it is interrupted) and takes them with
 * {@link #nextCompleted()}. A monitor (synchronized methods, {@link Object#wait()}): allocates nothing per
 * operation once the deque has grown to the largest batch.
 *
 * <p>Threading: {@link #add(IoRequest)} and {@link #interrupt()} from any thread; the rest by the leader, as the
 * {@link WaitStrategy} contract says.
 */
final class CompletionQueue implements WaitStrategy, InterruptStrategy {

    /** The only wait strategy of the file engine. */
    static final String NAME = "worker-queue";

    private final ArrayDeque<IoRequest> completed = new ArrayDeque<>();
    private boolean interrupted;

    @Override
    public String name() {
        return NAME;
    }

    /** Queues a finished request and wakes the leader. Any thread. */
    synchronized void add(IoRequest r) {
        completed.addLast(r);
        notifyAll();
    }

    /**
     * {@inheritDoc}
     *
     * <p>If the leader thread itself is interrupted (nothing in the framework does that), its interrupt status is
     * kept and the wait returns at once.
     */
    @Override
    public synchronized int waitFor(long timeoutNanos) {
        if (timeoutNanos != 0 && completed.isEmpty() && !interrupted) {
            long deadline = System.nanoTime() + timeoutNanos;
            try {
                while (completed.isEmpty() && !interrupted) {
                    if (timeoutNanos < 0) {
                        wait();
                    } else {
                        long left = deadline - System.nanoTime();
                        if (left <= 0) {
                            break;
                        }
                        wait(left / 1_000_000, (int) (left % 1_000_000));
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        interrupted = false;
        return completed.size();
    }

    @Override
    public synchronized IoRequest nextCompleted() {
        return completed.pollFirst();
    }

    @Override
    public InterruptStrategy interruptStrategy() {
        return this;
    }

    @Override
    public synchronized void interrupt() {
        interrupted = true;
        notifyAll();
    }
}
