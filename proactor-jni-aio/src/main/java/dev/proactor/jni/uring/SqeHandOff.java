package dev.proactor.jni.uring;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Who submits the SQEs that a thread which may not submit has written into one {@link IoUringRing} (see
 * {@link IoUringSubmission} for which threads may): an own leader's running turn, the own leader blocked in its
 * enter, woken by the {@link IoUringDoorbell}, or the engine's {@link IoUringSubmitter}. The decision rests on the
 * leader's state kept here (whether a thread blocks in {@code io_uring_enter}, whether an own leader's turn runs and
 * whether that leader blocks, whether its wait is bounded for offloaded work), on the doorbell's state, and on the
 * ring's count of written but unsubmitted entries.
 *
 * <p>Threading. The state is guarded by the <em>ring's</em> monitor, not this object's: a decision reads the ring's
 * unsubmitted entries ({@link IoUringRing#awaitsSubmission()}) together with the leader's flags, and
 * {@link #takeForWait()} sets the flags and takes the count in one hold, so every entry is either counted by the
 * leader's enter or seen by its writer with the flags set. Two fields are also used without it: {@code waiting},
 * volatile, written under the monitor and read without it ({@link #isWaiting()}); and the offload count, an atomic
 * counter changed without the monitor and read under it where it decides. Any thread may call the methods, as
 * documented on each; none makes a system call or takes another lock, so the lock order stays the ring's: a
 * channel's monitor, then the ring's.
 */
final class SqeHandOff {

    /** What {@link #whoSubmits()} tells a thread that may not submit: the entry is taken care of. */
    static final int HANDED = 0;
    /**
     * What {@link #whoSubmits()} tells a thread that may not submit: ring the doorbell (the caller is the only one).
     */
    static final int RING_DOORBELL = 1;
    /** What {@link #whoSubmits()} tells a thread that may not submit: wake the engine's submitter thread. */
    static final int TO_SUBMITTER = 2;

    /** The ring whose entries are handed off; its monitor guards this object's state. */
    private final IoUringRing ring;
    /** A thread is in, or about to enter, a blocking {@code io_uring_enter}; set under the monitor. */
    private volatile boolean waiting;
    /** An own leader's turn runs ({@link #beginOwnTurn} to {@link #endOwnTurn}). Guarded by the ring. */
    private boolean ownTurn;
    /** That leader blocks, or is about to, in its enter ({@link #takeForWait}). Guarded by the ring. */
    private boolean ownWaiting;
    /** The doorbell is armed and has never failed. Guarded by the ring. */
    private boolean doorbellUsable;
    /** The doorbell rang and its completion is not reaped yet: no second ring is needed. Guarded by the ring. */
    private boolean doorbellRung;
    /** A thread that may not submit left entries to the running own turn. Guarded by the ring. */
    private boolean leftForTurn;
    /** Offloaded handler work outstanding ({@link #offloadBegun()}); read under the monitor where it decides. */
    private final AtomicInteger offloads = new AtomicInteger();
    /**
     * The own leader's current wait began with offloaded work outstanding, so it is bounded
     * ({@link IoUringWaitStrategy}) and hand-offs during it may skip the doorbell. Guarded by the ring.
     */
    private boolean boundedWait;
    /**
     * A hand-off during the bounded wait skipped the doorbell, for the last offload's end to ring. Guarded by the
     * ring.
     */
    private boolean deferred;

    SqeHandOff(IoUringRing ring) {
        this.ring = ring;
    }

    /**
     * As {@link IoUringRing#takeUnsubmitted}, for an enter that blocks, by a thread that may submit: from now until
     * {@link #endWait} every thread that may submit and writes an SQE submits it itself ({@link #isWaiting()}),
     * and every other one rings the doorbell ({@link #whoSubmits()}), as the blocked leader would not see the entry.
     * Setting the flags and taking the count under the ring's monitor makes every entry either counted here or seen
     * by its writer with the flags set.
     */
    int takeForWait() {
        synchronized (ring) {
            waiting = true;
            ownWaiting = ownTurn;
            boundedWait = ownWaiting && offloads.get() > 0;
            return ring.takeUnsubmitted();
        }
    }

    /**
     * Whether the wait begun by the calling leader's {@link #takeForWait} must end within
     * {@link IoUringWaitStrategy#OFFLOAD_WAIT_LIMIT_NANOS}: entries handed off during it may wait for it.
     */
    boolean isWaitBounded() {
        synchronized (ring) {
            return boundedWait;
        }
    }

    /**
     * As {@link #takeForWait()} for a leader that may not submit: marks the wait without taking anything.
     *
     * @return whether entries are written and not submitted (the caller has them submitted by another thread)
     */
    boolean markWaitWithoutSubmitting() {
        synchronized (ring) {
            waiting = true;
            return ring.awaitsSubmission();
        }
    }

    /**
     * The blocking enter of {@code requested} entries taken with {@link #takeForWait} returned {@code result}: ends
     * the wait and gives back what the enter left (one monitor hold for both, once per wait).
     */
    void endWait(int requested, int result) {
        synchronized (ring) {
            waiting = false;
            ownWaiting = false;
            boundedWait = false;
            deferred = false; // what was deferred is left to the turn (leftForTurn): its next enter submits it
            ring.giveBack(requested, result);
        }
    }

    /**
     * Decides, for a thread that may not submit and has just written entries, who submits them: nobody new if they
     * were taken already or a doorbell is on its way; the own leader blocked in its enter, woken by the doorbell
     * ({@link #RING_DOORBELL}, answered to one caller per wait); the own leader's running turn, which takes them in
     * its enter or at its end ({@link #endOwnTurn()}); else the submitter thread.
     *
     * @return {@link #HANDED}, {@link #RING_DOORBELL} or {@link #TO_SUBMITTER}
     */
    int whoSubmits() {
        synchronized (ring) {
            if (!ring.awaitsSubmission()) {
                return HANDED;
            }
            if (ownWaiting && doorbellUsable) {
                leftForTurn = true;
                if (doorbellRung) {
                    return HANDED;
                }
                if (boundedWait && offloads.get() > 1) {
                    deferred = true; // other offloaded work is outstanding: the last to end rings (offloadEnded)
                    return HANDED;
                }
                doorbellRung = true;
                return RING_DOORBELL;
            }
            if (ownTurn && !ownWaiting) {
                leftForTurn = true;
                return HANDED;
            }
            return TO_SUBMITTER;
        }
    }

    /** Offloaded handler work began (see {@code Engine.offloadBegun()}). Any thread. */
    void offloadBegun() {
        offloads.incrementAndGet();
    }

    /**
     * Offloaded handler work ended: the last of it rings the doorbell if hand-offs skipped it during the leader's
     * bounded wait and their entries are still unsubmitted. Any thread; takes the monitor only at the last end. A
     * hand-off that read two or more outstanding under the monitor came before that end's decrement, so the end's
     * monitor section sees what it deferred.
     *
     * @return {@link #HANDED} or {@link #RING_DOORBELL}
     */
    int offloadEnded() {
        if (offloads.decrementAndGet() > 0) {
            return HANDED;
        }
        synchronized (ring) {
            if (!deferred) {
                return HANDED;
            }
            deferred = false;
            if (!ring.awaitsSubmission() || !ownWaiting || !doorbellUsable || doorbellRung) {
                return HANDED; // submitted already, or a ring is on its way
            }
            doorbellRung = true;
            return RING_DOORBELL;
        }
    }

    /**
     * The doorbell's read was (re)armed, or failed for good, or a ring failed: clears the ring on its way. Any
     * thread.
     */
    void setDoorbellUsable(boolean usable) {
        synchronized (ring) {
            doorbellUsable = usable;
            doorbellRung = false;
        }
    }

    /** A leader that may submit begins a turn: it submits whatever is written until {@link #endOwnTurn()}. */
    void beginOwnTurn() {
        synchronized (ring) {
            ownTurn = true;
        }
    }

    /**
     * The own leader's turn ends.
     *
     * @return whether entries were left to the turn and are still unsubmitted: the caller submits them now
     */
    boolean endOwnTurn() {
        synchronized (ring) {
            ownTurn = false;
            boolean left = leftForTurn && ring.awaitsSubmission();
            leftForTurn = false;
            return left;
        }
    }

    /** Whether a thread blocks (or is about to) in {@code io_uring_enter}. */
    boolean isWaiting() {
        return waiting;
    }
}
