package dev.proactor.nio2;

import java.nio.channels.AsynchronousChannel;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The {@link Future} of one NIO.2 operation. Cancelling it follows {@link AsynchronousChannel}'s rule as the
 * JDK implements it: the operation's direction is killed (further operations of it throw
 * {@link IllegalStateException}; a cancelled connect kills reading and writing, since the connection may still be
 * made), the I/O itself is not stopped (its result is dropped), and {@code cancel(true)} closes the channel.
 *
 * <p>Thread-safe; {@link #get} blocks until the operation completed or the future was cancelled.
 */
final class IoFuture<V> implements Future<V> {

    private static final int PENDING = 0;
    private static final int DONE = 1;
    private static final int CANCELLED = 2;

    /** Kills the directions a cancel leaves in an unknown state. */
    private final Runnable kill;
    private final AsynchronousChannel channel;
    // Guarded by this.
    private int state;
    private V value;
    private Throwable failure;

    /** A future of an operation of {@code slot}'s direction: a cancel kills that direction. */
    IoFuture(OperationSlot slot, AsynchronousChannel channel) {
        this(slot::kill, channel);
    }

    /** A future whose cancel runs {@code kill} (the directions it leaves in an unknown state). */
    IoFuture(Runnable kill, AsynchronousChannel channel) {
        this.kill = kill;
        this.channel = channel;
    }

    /**
     * Completes the future unless it was cancelled; called once by the slot's delivery.
     *
     * @return false if it was cancelled: nobody will take {@code result}, so the caller releases it
     */
    @SuppressWarnings("unchecked")
    synchronized boolean complete(Object result, Throwable error) {
        if (state != PENDING) {
            return false;
        }
        state = DONE;
        value = (V) result;
        failure = error;
        notifyAll();
        return true;
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        synchronized (this) {
            if (state != PENDING) {
                return false;
            }
            state = CANCELLED;
            notifyAll();
        }
        kill.run();
        if (mayInterruptIfRunning) {
            try {
                channel.close();
            } catch (java.io.IOException e) {
                // the channel is being closed anyway; the cancel itself succeeded
            }
        }
        return true;
    }

    @Override
    public synchronized boolean isCancelled() {
        return state == CANCELLED;
    }

    @Override
    public synchronized boolean isDone() {
        return state != PENDING;
    }

    @Override
    public synchronized V get() throws InterruptedException, ExecutionException {
        while (state == PENDING) {
            wait();
        }
        return outcome();
    }

    @Override
    public synchronized V get(long timeout, TimeUnit unit)
            throws InterruptedException, ExecutionException, TimeoutException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (state == PENDING) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new TimeoutException();
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return outcome();
    }

    private V outcome() throws ExecutionException {
        if (state == CANCELLED) {
            throw new CancellationException();
        }
        if (failure != null) {
            throw new ExecutionException(failure);
        }
        return value;
    }
}
