package dev.proactor.internal;

import static dev.proactor.Internals.core;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.Demultiplexor;
import dev.proactor.OpRead;
import dev.proactor.OpWrite;
import dev.proactor.OperationCancelledException;
import dev.proactor.testengine.ScriptedEngineProvider.ScriptedChannel;
import dev.proactor.testengine.ScriptedEngineProvider.ScriptedEngine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.InterruptedByTimeoutException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One channel on a demultiplexor of the scripted engine without pool (the test's threads drive it with
 * {@code handleEvents}), with a handler that checks the per-direction rules of {@link AsynchHandler} on every read
 * completion. Used by the model-checking tests, one instance per explored execution.
 *
 * <p>Reads get ids in submission order (taking the id and submitting is one step under {@link #submitLock}),
 * so "completed in start order" is "ids dispatched in increasing order". What a callback finds wrong is kept in
 * {@link #violation} (the dispatcher catches what a callback throws) and reported by {@link #checkNoViolation}.
 */
final class ReadJournal {

    static final int MAX_READS = 64;

    final Demultiplexor demux;
    final ScriptedEngine engine;
    final AsynchChannel ch;
    final ScriptedChannel engineChannel;

    private final Object submitLock = new Object();
    private int nextId; // guarded by submitLock
    /** Per read: close() had returned before it was submitted (so it must fail with ClosedChannelException). */
    private final boolean[] afterClose = new boolean[MAX_READS];
    /** Per read: its callback starts another read (as a server re-arms its read). */
    private final boolean[] chained = new boolean[MAX_READS];
    /** Per read: started with a timeout (due at once), so it may complete with InterruptedByTimeoutException. */
    private final boolean[] timed = new boolean[MAX_READS];
    private volatile boolean closeReturned;
    private volatile boolean demuxCloseReturned;

    private final AtomicInteger inside = new AtomicInteger();
    private final AtomicIntegerArray completions = new AtomicIntegerArray(MAX_READS);
    private volatile int lastDispatched = -1;
    private volatile String violation;

    /** A journal on a channel of a new demultiplexor. */
    ReadJournal() {
        this(ModelChecking.openScripted(0));
    }

    /** A journal on a new channel of {@code demux} (opened by {@link ModelChecking#openScripted}). */
    ReadJournal(Demultiplexor demux) {
        this.demux = demux;
        try {
            ch = AsynchChannel.openSocket(demux, new AsynchHandler() {
                @Override
                public void onReadCompleted(OpRead op) {
                    completed(op);
                }

                @Override
                public void onWriteCompleted(OpWrite op) {
                    violated("no write was started");
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        engine = ModelChecking.engine(ch);
        engineChannel = ModelChecking.engineChannel(ch);
    }

    /** Starts a read (whose callback starts another read if {@code chain}). */
    void read(boolean chain) {
        synchronized (submitLock) {
            int id = nextId++;
            afterClose[id] = closeReturned;
            chained[id] = chain;
            // After the demultiplexor closed, a read that becomes active at once (no callback of the direction is
            // running or due: with submitLock held, nothing else can make one active) is dispatched by the thread
            // that starts it, before read() returns, unless that thread is itself in a callback.
            boolean dispatchedHere = demuxCloseReturned && core(ch).input.active() == null
                    && !core(demux).dispatcher().isDispatcherThread();
            ch.read(ByteBuffer.allocate(1), id);
            if (dispatchedHere && completions.get(id) != 1) {
                violated("read " + id + " started after the demultiplexor closed was not dispatched by the thread "
                        + "that started it");
            }
        }
    }

    /**
     * Starts a read whose timeout is due at once (its timer fires at the next dispatch, racing with the read's
     * admission, completion and dispatch); it may reuse the operation object of an earlier read, timed or not.
     */
    void readTimed() {
        synchronized (submitLock) {
            int id = nextId++;
            afterClose[id] = closeReturned;
            timed[id] = true;
            ch.read(ByteBuffer.allocate(1), 1, TimeUnit.NANOSECONDS, id);
        }
    }

    /**
     * Makes the demultiplexor's timer queue run on a clock that moves one nanosecond every time it is read (under
     * Lincheck {@code System.nanoTime} stands still, so a timer armed for 1 ns would never be due): a timeout of
     * 1 ns is due at the next look at the clock, deterministically in every explored interleaving.
     */
    void tickTimerClockOnEveryRead() {
        AtomicLong ticks = new AtomicLong();
        core(demux).dispatcher().useTimerClock(ticks::incrementAndGet);
    }

    /**
     * After every thread finished, before close: dispatches until every due timer fired (with the ticking clock a
     * few rounds suffice), then checks that the first read still pending, if any, is not a timed one: its timer
     * fired and must have ended it, also if it fired before the read was admitted. (A timed read behind a pending
     * plain read is marked but completes in start order, after it.)
     */
    void drainAndCheckTimedReadsEnded() {
        checkNoViolation();
        int n;
        synchronized (submitLock) {
            n = nextId;
        }
        for (int round = 0; round < 3; round++) {
            drain(demux);
        }
        checkNoViolation();
        for (int id = 0; id < n; id++) {
            if (completions.get(id) == 0) {
                if (timed[id]) {
                    throw new AssertionError("timed read " + id + " is still pending although its timer fired "
                            + "and every read before it completed");
                }
                return;
            }
        }
    }

    /** Closes the channel and records that it returned. */
    void close() {
        ch.close();
        closeReturned = true;
    }

    /** Closes the demultiplexor (which closes the channel) and records that it returned. */
    void closeDemultiplexor() {
        demux.close();
        closeReturned = true;
        demuxCloseReturned = true;
    }

    /** The engine completes the parked read, if any, with one byte. */
    void complete() {
        engine.complete(engineChannel, true, 1);
    }

    /** One {@code handleEvents(0)}: the thread must not lead any more once it returned. */
    int handleEvents() {
        int n = demux.handleEvents(0, TimeUnit.MILLISECONDS);
        if (ModelChecking.leader(ModelChecking.processor(ch)) == Thread.currentThread()) {
            throw new AssertionError("the thread still leads after handleEvents returned");
        }
        checkNoViolation();
        return n;
    }

    private void completed(OpRead op) {
        if (inside.incrementAndGet() != 1) {
            violated("two read callbacks of one channel at once");
        }
        try {
            int id = (Integer) op.getAttachment();
            if (id <= lastDispatched) {
                violated("read " + id + " completed after read " + lastDispatched + " (start order broken)");
            }
            lastDispatched = id; // also a point where another thread may run while this callback is inside
            if (completions.incrementAndGet(id) != 1) {
                violated("read " + id + " completed twice");
            }
            Throwable error = op.getError();
            if (afterClose[id]) {
                if (!(error instanceof ClosedChannelException)) {
                    violated("read " + id + " started after close() returned completed with " + describe(op));
                }
            } else if (error == null) {
                if (op.getBytesCompleted() != 1) {
                    violated("read " + id + " completed with " + op.getBytesCompleted() + " bytes");
                }
            } else if (error instanceof InterruptedByTimeoutException) {
                if (!timed[id]) {
                    violated("read " + id + " had no timeout but timed out (a stale timer of a recycled operation)");
                }
            } else if (!(error instanceof OperationCancelledException
                    || error instanceof AsynchronousCloseException || error instanceof ClosedChannelException)) {
                violated("read " + id + " failed with " + error);
            }
            if (chained[id]) {
                read(false);
            }
        } finally {
            inside.decrementAndGet();
        }
    }

    private static String describe(OpRead op) {
        return op.getError() == null ? "success (" + op.getBytesCompleted() + " bytes)" : op.getError().toString();
    }

    private void violated(String what) {
        if (violation == null) {
            violation = what;
        }
        throw new AssertionError(what);
    }

    void checkNoViolation() {
        String v = violation;
        if (v != null) {
            throw new AssertionError(v);
        }
    }

    /**
     * After every thread finished: closes the channel, dispatches everything left, and checks that every read
     * completed exactly once and that nothing is left active, waiting, parked in the engine or leading.
     */
    void closeDrainAndCheck() {
        checkNoViolation();
        if (demuxCloseReturned && core(demux).dispatcher().hasQueuedCompletions()) {
            throw new AssertionError("completions left queued after the demultiplexor closed");
        }
        close();
        drain(demux);
        checkDrained();
    }

    /** Dispatches everything left in {@code demux}: handleEvents(0) until a call dispatches nothing. */
    static void drain(Demultiplexor demux) {
        while (demux.handleEvents(0, TimeUnit.MILLISECONDS) > 0) {
            // again
        }
    }

    /** After close and {@link #drain}: every read completed exactly once, nothing is left anywhere. */
    void checkDrained() {
        checkNoViolation();
        int n;
        synchronized (submitLock) {
            n = nextId;
        }
        for (int id = 0; id < n; id++) {
            if (completions.get(id) != 1) {
                throw new AssertionError("read " + id + " completed " + completions.get(id) + " times");
            }
        }
        if (engineChannel.parked(true) != null) {
            throw new AssertionError("a read is left parked in the engine after close and drain");
        }
        if (core(ch).input.active() != null || core(ch).input.waitingCount() != 0) {
            throw new AssertionError("direction not empty after close and drain: " + core(ch).input);
        }
        if (ModelChecking.leader(ModelChecking.processor(ch)) != null) {
            throw new AssertionError("a thread still leads after every thread left");
        }
        int[] counts = ModelChecking.followerCounts(core(demux).dispatcher());
        if (counts[0] != 0 || counts[1] != 0) {
            throw new AssertionError("followers " + counts[0] + ", pending wake-ups " + counts[1]
                    + " after every thread left");
        }
    }
}
