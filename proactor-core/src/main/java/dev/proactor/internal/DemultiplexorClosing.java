package dev.proactor.internal;

import java.io.IOException;
import java.util.List;
import java.util.Set;

/**
 * The close sequence of a {@link DemultiplexorCore}, whose {@link DemultiplexorCore#close()} documents what it guarantees:
 * the steps after the demultiplexor was marked closed, in an order where each step finds the ones before it done.
 * Timers go first, so none fires from now on; the channels close while the threads still run, so they dispatch their
 * operations' errors; every thread that may wait in an engine is stopped or waited for before the last completions
 * are collected and drained; the engines close last, under nobody.
 *
 * <p>Deferred waits: when {@code close()} is called on a thread inside the demultiplexor's loop (from a callback, on a
 * pool thread or a thread in {@code handleEvents}), only the steps that never wait run in that call
 * ({@link #closeWithoutWaiting}): the steps that wait for other threads run on the same thread once its loop has ended
 * ({@link #finishDeferred()}), after the callback returned. A callback may hold what another callback waits for (a lock
 * of the service, the end of a callback of its channel's direction), so joining that callback's thread from inside it
 * would never end.
 *
 * <p>Thread-safety: runs once, on the thread whose {@code close()} marked the demultiplexor closed, after it
 * released the life-cycle lock (the pool threads it joins may need that lock: a callback opens a file or asks for the
 * pool's size, a fatal error records its cause). Its only state is the deferred part, written and read by that
 * thread; each step takes the locks it needs (channel directions, engines, the dispatcher's lock).
 *
 * <p>Errors: an interrupt of the closing thread, set before (the caller's, or one a callback left on the thread that
 * finishes a deferred close) or arriving during the close, does not cut the waits for the threads short (a callback
 * still running when {@code close()} returned could use what its caller frees next, and no thread may be left in an
 * engine that is closed): they are waited for again, and the interrupt status is set again at the end. Only the
 * engines' {@link Processor#collectAtClose() quiesce} gives up when interrupted during the close itself. An engine
 * whose close fails is logged and the next one is still closed. Anything else a step throws propagates to the caller
 * of {@code close()}.
 */
final class DemultiplexorClosing {

    /** The demultiplexor's name, in log messages. */
    private final String name;
    private final Dispatcher dispatcher;
    private final Processor[] processors;
    /** The demultiplexor's open channels (a concurrent set: channels leave it while it is closed). */
    private final Set<ChannelCore> channels;
    /** The thread that is to finish the close {@link #closeWithoutWaiting} began, or null (others only compare). */
    private volatile Thread deferredTo;
    /** The pool threads that deferred close is to join. */
    private List<Thread> deferredPool;

    /** The close sequence of the demultiplexor named {@code name} with these parts. */
    DemultiplexorClosing(String name, Dispatcher dispatcher, Processor[] processors, Set<ChannelCore> channels) {
        this.name = name;
        this.dispatcher = dispatcher;
        this.processors = processors;
        this.channels = channels;
    }

    /**
     * Closes the demultiplexor, just marked closed, whose pool threads are {@code pool} (the calling thread, if one
     * of them, is not waited for).
     */
    void close(List<Thread> pool) {
        stopWithoutWaiting();
        finish(pool);
    }

    /**
     * As {@link #close}, for a calling thread inside the dispatcher's loop: runs the steps that never wait, and leaves
     * the rest to {@link #finishDeferred()}, which that thread calls when its loop has ended.
     */
    void closeWithoutWaiting(List<Thread> pool) {
        deferredPool = pool;
        deferredTo = Thread.currentThread();
        stopWithoutWaiting();
    }

    /**
     * Finishes a close that {@link #closeWithoutWaiting} left to the calling thread, if it did; else does nothing.
     * Called by a thread that has left the dispatcher's loop (a pool thread at its end, a user thread returning from
     * {@code handleEvents}).
     */
    void finishDeferred() {
        if (deferredTo != Thread.currentThread()) {
            return;
        }
        deferredTo = null;
        finish(deferredPool);
    }

    /** Drops the timers, closes every channel and stops the loops: nothing here waits for another thread. */
    private void stopWithoutWaiting() {
        dispatcher.timers.stopTimers();
        for (ChannelCore ch : channels.toArray(new ChannelCore[0])) {
            ch.close();
        }
        dispatcher.stop();
    }

    /** Waits for the threads, collects and dispatches what is left, closes the engines. */
    private void finish(List<Thread> pool) {
        boolean interrupted = Thread.interrupted(); // set again at the end; a wait must not end at once for it
        for (Thread t : pool) {
            if (t != Thread.currentThread()) {
                interrupted |= waitUninterruptibly(t::join);
            }
        }
        for (Processor p : processors) {
            interrupted |= waitUninterruptibly(p::stopDedicatedLeader);
        }
        // a user thread in handleEvents may still wait in an engine
        interrupted |= waitUninterruptibly(dispatcher.leadership::awaitNoLeader);
        for (Processor p : processors) {
            try {
                p.collectAtClose(); // e.g. file operations that were still running on a worker
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        dispatcher.drainAndTerminate();
        for (Processor p : processors) {
            try {
                p.engine().close();
            } catch (IOException e) {
                Dispatcher.LOG.warn("{}: closing engine {} failed", name, p, e);
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** A wait that an interrupt ends early; running it again is safe. */
    @FunctionalInterface
    private interface Wait {
        void await() throws InterruptedException;
    }

    /** Runs {@code wait} again each time an interrupt ends it, until it ends by itself; returns whether one did. */
    private static boolean waitUninterruptibly(Wait wait) {
        boolean interrupted = false;
        for (;;) {
            try {
                wait.await();
                return interrupted;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
    }
}
