package dev.proactor;

import java.io.IOException;
import java.util.List;
import java.util.Set;

/**
 * The close sequence of a {@link Demultiplexor}, whose {@link Demultiplexor#close()} documents what it guarantees:
 * the steps after the demultiplexor was marked closed, in an order where each step finds the ones before it done.
 * Timers go first, so none fires from now on; the channels close while the threads still run, so they dispatch their
 * operations' errors; every thread that may wait in an engine is stopped or waited for before the last completions
 * are collected and drained; the engines close last, under nobody.
 *
 * <p>Thread-safety: runs once, on the thread whose {@code close()} marked the demultiplexor closed, after it
 * released the life-cycle lock (the pool threads it joins may need that lock: a callback opens a file or asks for the
 * pool's size, a fatal error records its cause). No state of its own; each step takes the locks it needs (channel
 * directions, engines, the dispatcher's lock).
 *
 * <p>Errors: an interrupt of the closing thread cuts short the wait it interrupts, never the sequence: the next steps
 * run, and the interrupt status is set again at the end. An engine whose close fails is logged and the next one is
 * still closed. Anything else a step throws propagates to the caller of {@code close()}.
 */
final class DemultiplexorClosing {

    /** The demultiplexor's name, in log messages. */
    private final String name;
    private final Dispatcher dispatcher;
    private final Processor[] processors;
    /** The demultiplexor's open channels (a concurrent set: channels leave it while it is closed). */
    private final Set<AsynchChannel> channels;

    /** The close sequence of the demultiplexor named {@code name} with these parts. */
    DemultiplexorClosing(String name, Dispatcher dispatcher, Processor[] processors, Set<AsynchChannel> channels) {
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
        dispatcher.timers.stopTimers();
        for (AsynchChannel ch : channels.toArray(new AsynchChannel[0])) {
            ch.close();
        }
        dispatcher.stop();
        boolean interrupted = false;
        for (Thread t : pool) {
            if (t == Thread.currentThread()) {
                continue;
            }
            try {
                t.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        for (Processor p : processors) {
            try {
                p.stopDedicatedLeader();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        try {
            dispatcher.leadership.awaitNoLeader(); // a user thread in handleEvents may still wait in an engine
        } catch (InterruptedException e) {
            interrupted = true;
        }
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
}
