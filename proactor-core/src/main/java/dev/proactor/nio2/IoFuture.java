package dev.proactor.nio2;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.channels.AsynchronousChannel;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * The {@link Future} of one NIO.2 operation. Cancelling it follows {@link AsynchronousChannel}'s rule as the
 * JDK implements it: the operation's direction is killed (further operations of it throw the JDK's exception, see
 * {@link OperationSlot.Kind#killedException()}; a cancelled connect kills reading and writing, since the connection
 * may still be made), the I/O itself is not stopped (its result is dropped), and {@code cancel(true)} closes the
 * channel. As the JDK's, the direction is killed before any waiter sees the cancel.
 *
 * <p>Thread-safe. {@link #get} parks ({@link LockSupport}) until the operation completed or the future was
 * cancelled, holding no monitor: a virtual thread waiting here leaves its carrier to others (a monitor would pin it
 * on JDK 21-23). Waiting threads are a lock-free stack of nodes made only by threads that actually wait.
 */
final class IoFuture<V> implements Future<V> {

    private static final int PENDING = 0;
    /** Won by {@link #complete} or {@link #cancel}: the outcome is being recorded; waiters go on waiting. */
    private static final int SETTLING = 1;
    private static final int DONE = 2;
    private static final int CANCELLED = 3;

    private static final VarHandle STATE;
    private static final VarHandle WAITERS;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            STATE = l.findVarHandle(IoFuture.class, "state", int.class);
            WAITERS = l.findVarHandle(IoFuture.class, "waiters", Waiter.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Kills the directions a cancel leaves in an unknown state. */
    private final Runnable kill;
    private final AsynchronousChannel channel;
    private volatile int state;
    /** Written while SETTLING, published by the volatile write of DONE. */
    private V value;
    private Throwable failure;
    /** Threads parked in {@link #get}, newest first; taken whole by the settling thread. */
    private volatile Waiter waiters;

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
    boolean complete(Object result, Throwable error) {
        if (!STATE.compareAndSet(this, PENDING, SETTLING)) {
            return false;
        }
        value = (V) result;
        failure = error;
        settle(DONE);
        return true;
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        if (!STATE.compareAndSet(this, PENDING, SETTLING)) {
            return false;
        }
        try {
            kill.run();
        } finally {
            settle(CANCELLED);
        }
        if (mayInterruptIfRunning) {
            try {
                channel.close();
            } catch (java.io.IOException e) {
                // the channel is being closed anyway; the cancel itself succeeded
            }
        }
        return true;
    }

    /** Publishes the final state, then wakes every waiter (one that queues after this sees the state itself). */
    private void settle(int finalState) {
        state = finalState;
        for (Waiter w = (Waiter) WAITERS.getAndSet(this, (Waiter) null); w != null; w = w.next) {
            Thread t = w.thread;
            if (t != null) {
                w.thread = null;
                LockSupport.unpark(t);
            }
        }
    }

    @Override
    public boolean isCancelled() {
        return state == CANCELLED;
    }

    @Override
    public boolean isDone() {
        return state >= DONE;
    }

    @Override
    public V get() throws InterruptedException, ExecutionException {
        int s = state;
        if (s < DONE) {
            try {
                s = await(false, 0L);
            } catch (TimeoutException impossible) {
                throw new AssertionError(impossible);
            }
        }
        return outcome(s);
    }

    @Override
    public V get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        long nanos = unit.toNanos(timeout);
        int s = state;
        if (s < DONE) {
            s = await(true, nanos);
        }
        return outcome(s);
    }

    /**
     * Parks until the state is final, an interrupt ({@link InterruptedException}, the interrupt status cleared) or,
     * if {@code timed}, the time is up.
     *
     * @return the final state
     */
    private int await(boolean timed, long nanos) throws InterruptedException, TimeoutException {
        long deadline = timed ? System.nanoTime() + nanos : 0L;
        Waiter w = null;
        boolean queued = false;
        for (;;) {
            int s = state;
            if (s >= DONE) {
                if (w != null) {
                    w.thread = null;
                }
                return s;
            }
            if (Thread.interrupted()) {
                unqueue(w);
                throw new InterruptedException();
            }
            if (w == null) {
                if (timed && nanos <= 0L) {
                    throw new TimeoutException();
                }
                w = new Waiter();
            } else if (!queued) {
                Waiter head = waiters;
                w.next = head;
                queued = WAITERS.compareAndSet(this, head, w);
            } else if (timed) {
                long left = deadline - System.nanoTime();
                if (left <= 0L) {
                    unqueue(w);
                    throw new TimeoutException();
                }
                LockSupport.parkNanos(this, left);
            } else {
                LockSupport.park(this);
            }
        }
    }

    /**
     * Takes the node of a waiter that gives up (interrupt, timeout) out of the stack, with every other node whose
     * thread left, so a future polled with short timeouts does not collect nodes. Restarts when it races another
     * unlinking.
     */
    private void unqueue(Waiter node) {
        if (node == null) {
            return;
        }
        node.thread = null;
        retry:
        for (;;) {
            Waiter pred = null;
            for (Waiter q = waiters, next; q != null; q = next) {
                next = q.next;
                if (q.thread != null) {
                    pred = q;
                } else if (pred != null) {
                    pred.next = next;
                    if (pred.thread == null) { // pred left meanwhile: start again
                        continue retry;
                    }
                } else if (!WAITERS.compareAndSet(this, q, next)) {
                    continue retry;
                }
            }
            return;
        }
    }

    private V outcome(int s) throws ExecutionException {
        if (s == CANCELLED) {
            throw new CancellationException();
        }
        if (failure != null) {
            throw new ExecutionException(failure);
        }
        return value;
    }

    /** A thread parked in {@link #get}; its thread is cleared once woken or gone. */
    private static final class Waiter {
        volatile Thread thread = Thread.currentThread();
        volatile Waiter next;
    }
}
