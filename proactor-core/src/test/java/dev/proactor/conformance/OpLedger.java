package dev.proactor.conformance;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The accounting of one direction of one channel: every operation started is registered with a unique token
 * (passed as the operation's attachment) and every completion callback checks its token off. A completion
 * whose token is not outstanding is a duplicate; one that is not the oldest outstanding token completed out
 * of start order; a callback entered while another callback of the same direction runs is an overlap.
 */
final class OpLedger {

    /** What a started operation carries as its attachment. */
    static class Token {
        final long seq;
        /** Set once the call that started the operation has returned. */
        volatile boolean submitted;
        /** When it was registered (for the report of a connection that got stuck). */
        long startedNanos;

        Token(long seq) {
            this.seq = seq;
        }
    }

    private final SoakStats stats;
    private final String name;
    private final ArrayDeque<Token> outstanding = new ArrayDeque<>();
    private final AtomicBoolean inCallback = new AtomicBoolean();
    private long nextSeq;

    OpLedger(SoakStats stats, String name) {
        this.stats = stats;
        this.name = name;
    }

    /** The sequence number for the next token. Caller serialises the starts of this direction. */
    synchronized long nextSeq() {
        return nextSeq++;
    }

    /** Registers {@code t} right before its operation is started (+1). */
    synchronized void started(Token t) {
        t.startedNanos = System.nanoTime();
        outstanding.addLast(t);
        stats.opsStarted.increment();
    }

    /** Takes back a token whose start call threw (so nothing was started). */
    synchronized void startFailed(Token t, RuntimeException e) {
        if (outstanding.removeLastOccurrence(t)) {
            stats.opsStarted.decrement();
        }
        stats.startThrew.increment();
        stats.detail("start threw", name + ": " + e);
    }

    /**
     * Checks a completion off (-1).
     *
     * @return its token, or {@code null} if it was not outstanding (a duplicate: the caller must ignore it)
     */
    synchronized Token completed(Object attachment) {
        Token head = outstanding.peekFirst();
        if (!(attachment instanceof Token t) || !outstanding.removeFirstOccurrence(t)) {
            stats.duplicates.increment();
            stats.detail("duplicate completion", name + ": completion with attachment " + attachment
                    + " that is not an outstanding operation (" + outstanding.size() + " outstanding)");
            return null;
        }
        stats.opsCompleted.increment();
        if (head != t) {
            stats.outOfOrder.increment();
            stats.detail("out of order", name + ": operation #" + t.seq + " completed before #" + head.seq);
        }
        return t;
    }

    /** Callback entry: returns whether this callback holds the direction's flag (false = an overlap). */
    boolean enter() {
        if (inCallback.compareAndSet(false, true)) {
            return true;
        }
        stats.overlaps.increment();
        stats.detail("direction overlap", name + ": a callback started while another of the same direction ran");
        return false;
    }

    /** Callback exit. */
    void exit(boolean entered) {
        if (entered) {
            inCallback.set(false);
        }
    }

    synchronized int outstanding() {
        return outstanding.size();
    }

    /** The outstanding operations whose starting call has returned. */
    synchronized List<Token> submittedOutstanding() {
        List<Token> list = new ArrayList<>();
        for (Token t : outstanding) {
            if (t.submitted) {
                list.add(t);
            }
        }
        return list;
    }

    synchronized String describeOutstanding() {
        StringBuilder b = new StringBuilder("[");
        for (Token t : outstanding) {
            b.append(b.length() > 1 ? ", #" : "#").append(t.seq).append(t.submitted ? "" : " (starting)")
                    .append(" for ").append(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t.startedNanos))
                    .append(" ms");
        }
        return b.append(']').toString();
    }

    synchronized boolean isOutstanding(Token t) {
        return outstanding.contains(t);
    }

    @Override
    public String toString() {
        return name;
    }
}
