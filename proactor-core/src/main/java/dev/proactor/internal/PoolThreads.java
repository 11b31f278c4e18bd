package dev.proactor.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadFactory;

/**
 * The pool threads of a {@link DemultiplexorCore}: makes and starts them for
 * {@link DemultiplexorCore#start(int, ThreadFactory)}, which documents the rules; runs each one's life (the dispatcher's
 * pool loop until the dispatcher stops, then, in owner mode, the owner's last collect); counts them; and gives
 * {@link DemultiplexorCore#close()} the threads to join.
 *
 * <p>Thread-safety: the list of threads is guarded by the demultiplexor's life-cycle lock, which the caller holds
 * for every method: a thread is started under the same lock as the close marks the demultiplexor closed and copies
 * the list, so every thread started is joined by the close, and none starts after it. The threads' own body
 * ({@link #run()}) runs without that lock.
 *
 * <p>A thread whose callback closed the demultiplexor finishes that close when its loop has ended (see
 * {@link DemultiplexorCore#close()}).
 *
 * <p>Errors: {@link #start} throws {@link IllegalStateException} if the factory returns no thread (none of the
 * threads of that call is started). In a pool thread, a {@link RuntimeException} from the dispatch loop is logged and the loop
 * goes on; an {@link Error} closes the demultiplexor ({@link DemultiplexorCore#closeOnFatal}) and ends the thread.
 */
final class PoolThreads {

    private final DemultiplexorCore demultiplexor;
    /** The demultiplexor's name: prefix of the default thread names, and of the log messages. */
    private final String name;
    private final Dispatcher dispatcher;
    private final Processor[] processors;
    /** Every thread started, in order of start; one that has ended stays (see {@link #alive()}). */
    private final List<Thread> threads = new ArrayList<>();

    /** The pool of {@code demultiplexor}, named {@code name}, whose threads run {@code dispatcher}'s loop. */
    PoolThreads(DemultiplexorCore demultiplexor, String name, Dispatcher dispatcher, Processor[] processors) {
        this.demultiplexor = demultiplexor;
        this.name = name;
        this.dispatcher = dispatcher;
        this.processors = processors;
    }

    /**
     * Makes {@code count} threads with {@code factory} (null: daemon threads named {@code name-M}) and starts
     * them. Life-cycle lock held, the demultiplexor open.
     *
     * @throws IllegalStateException if the factory returns null (that thread and later ones are not started)
     */
    void start(int count, ThreadFactory factory) {
        // Every thread is made before any starts: a factory that fails half-way leaves the pool as it was.
        Thread[] made = new Thread[count];
        for (int i = 0; i < count; i++) {
            if (factory == null) {
                made[i] = new Thread(this::run, name + "-" + (threads.size() + i + 1));
                made[i].setDaemon(true);
            } else {
                made[i] = factory.newThread(this::run);
                if (made[i] == null) {
                    throw new IllegalStateException("thread factory " + factory + " returned no thread");
                }
            }
        }
        for (Thread t : made) {
            threads.add(t);
            t.start();
        }
    }

    /** A pool thread's life: the dispatch loop until the dispatcher stops, then the owner's last collect. */
    private void run() {
        dispatcher.adoptOwnThread();
        try {
            while (!dispatcher.isStopping()) {
                try {
                    dispatcher.runPoolThread();
                } catch (RuntimeException e) {
                    Dispatcher.LOG.error("{}: unexpected error in the dispatch loop, continuing", name, e);
                } catch (Error e) {
                    demultiplexor.closeOnFatal(e);
                    return;
                }
            }
            for (Processor p : processors) {
                try {
                    p.finishIfOwner(); // owner mode: nobody else may collect from that engine
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt(); // the thread is about to end: nothing to hand the status to
                }
            }
        } finally {
            demultiplexor.finishDeferredClose(); // a callback of this thread closed the demultiplexor
        }
    }

    /** Whether no thread was ever started. Life-cycle lock held. */
    boolean isEmpty() {
        return threads.isEmpty();
    }

    /** Threads started. Life-cycle lock held. */
    int size() {
        return threads.size();
    }

    /** Threads started that are still alive. Life-cycle lock held. */
    int alive() {
        int alive = 0;
        for (Thread t : threads) {
            if (t.isAlive()) {
                alive++;
            }
        }
        return alive;
    }

    /** A copy of the threads started, for the close to join after it released the lock. Life-cycle lock held. */
    List<Thread> copy() {
        return new ArrayList<>(threads);
    }
}
