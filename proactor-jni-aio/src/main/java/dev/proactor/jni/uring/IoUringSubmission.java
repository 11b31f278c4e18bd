package dev.proactor.jni.uring;

import dev.proactor.jni.Errors;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who submits an SQE once it is written, for one {@link IoUringEngine}.
 *
 * <p>The kernel ties a request to the thread whose {@code io_uring_enter} submitted it: it cancels the request when
 * that thread exits, and runs the request's completion work on that thread. So only threads that outlive the
 * engine's requests submit, the demultiplexor's own ({@code ownThread}) and the engine's {@link IoUringSubmitter};
 * and preferably the leader, which waits for the completions anyway. A thread that may submit and writes while the
 * leader blocks submits itself (the leader would not see the entry); otherwise the leader's next enter takes it,
 * one system call per batch. A thread that may not submit (a user thread calling {@code read}, a virtual thread's
 * carrier, an executor's thread) hands its entries on ({@link SqeHandOff#whoSubmits()}): to an own leader's running
 * turn, to an own leader blocked in its enter by ringing the {@link IoUringDoorbell}, and only when no own thread
 * leads to the submitter thread.
 *
 * <p><b>A single-issuer ring</b> ({@link IoUringFeatures#singleIssuer()}) has one owner, the first thread that leads
 * (or, if none ever did, the thread that closes the engine, for its last wait: {@link #claim()}); only the owner
 * submits and enters the ring, and there is no submitter thread. Every other thread hands its entries to the owner:
 * to its running turn, through the doorbell while it waits, or else to its next wait, which takes everything written
 * ({@link SqeHandOff#takeForWait()}); the owner is the only leader, so it always comes back to wait.
 *
 * <p><b>Offloaded handler work</b> ({@link #offloadBegun()}: completions a pool thread handed to an executor, whose
 * threads then start operations) gathers the doorbell's rings: while any is outstanding the own leader's wait is
 * bounded, a hand-off during it leaves the ring to work that ends later, and the last end rings once
 * ({@link SqeHandOff#offloadEnded()}); so a batch of handlers costs one wake-up, and one that blocks delays the
 * others' entries by the wait's bound at most.
 *
 * <p>A full submission queue is waited on ({@link #writeSqe}): the writer makes room (submits, or has the
 * submitter submit) and retries, so a start, continuation or cancel is never failed or lost for lack of room.
 *
 * <p>Thread-safe; the turn and doorbell methods are for the engine's leader as documented on each.
 */
final class IoUringSubmission {

    private static final Logger LOG = LoggerFactory.getLogger(IoUringSubmission.class);

    /** Longest wait for room in a full submission queue, or for the kernel to consume a closing channel's SQEs. */
    static final long ROOM_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final IoUringRing ring;
    /** Decides who submits what a thread that may not submit wrote; its state is guarded by the ring's monitor. */
    private final SqeHandOff handOff;
    /** Whether the calling thread is one of the demultiplexor's own. */
    private final BooleanSupplier ownThread;
    /** Null for a single-issuer ring. */
    private final IoUringSubmitter submitter;
    private final IoUringDoorbell doorbell;
    private final boolean singleIssuer;
    /** A single-issuer ring's owner (see the class documentation), null until one claimed it. */
    private volatile Thread owner;

    /**
     * Starts the submitter thread (unless the ring is single-issuer) and arms the doorbell (its read is submitted
     * by the first leader's enter, or the submitter: a ring before that leaves the eventfd's counter set, so
     * nothing is lost).
     *
     * @param singleIssuer whether the ring was made for one owner thread, disabled until {@link #claim()}
     * @throws IOException if the eventfd cannot be made or its read not written
     */
    IoUringSubmission(IoUringRing ring, SqeHandOff handOff, BooleanSupplier ownThread, String name,
                      boolean singleIssuer) throws IOException {
        this.ring = ring;
        this.handOff = handOff;
        this.ownThread = ownThread;
        this.singleIssuer = singleIssuer;
        this.doorbell = new IoUringDoorbell();
        this.submitter = singleIssuer ? null : new IoUringSubmitter(ring, name + "-io_uring-submitter");
        try {
            handOff.setDoorbellUsable(doorbell.arm(this));
        } catch (IOException | RuntimeException e) {
            stopQuietly();
            doorbell.closeQuietly(e);
            throw e;
        }
    }

    /**
     * A leader is about to wait: on a single-issuer ring nobody owns yet, the calling thread enables the ring and
     * becomes its owner (the core lets only that thread lead from now on). No-op otherwise.
     *
     * @throws IOException if the kernel refuses to enable the ring
     */
    void claim() throws IOException {
        if (!singleIssuer || owner != null) {
            return; // every wait passes here: no monitor once the ring has its owner
        }
        synchronized (this) {
            if (owner == null) {
                ring.enable();
                owner = Thread.currentThread();
            }
        }
    }

    /** Whether the calling thread may enter the ring: submit, or wait for completions. */
    boolean mayEnter() {
        return !singleIssuer || owner == Thread.currentThread();
    }

    /**
     * Whether what the calling thread writes is submitted by a thread of the demultiplexor's own: this thread or the
     * leader (a pool thread), the owner of a single-issuer ring; never by the submitter thread. The kernel runs a
     * request's completion work on the task that submitted it.
     */
    boolean submittedByOwnThread() {
        return singleIssuer || ownThread.getAsBoolean();
    }

    /** Whether the calling thread may submit. */
    boolean maySubmit() {
        return singleIssuer ? mayEnter() : ownThread.getAsBoolean() || submitter.isCurrentThread();
    }

    /**
     * Whether an SQE the calling thread writes now goes out with an {@code io_uring_enter} that comes anyway: the
     * thread may submit and no leader is blocked in its enter, so the next leader's enter (this very thread's, on a
     * one-thread pool, once its handlers return) submits it with the rest of its batch and waits in the same call.
     * Otherwise writing an SQE costs a system call of its own (the submit-only enter of {@link #afterWrite()}) or
     * a hand-off to the leader.
     */
    boolean batchesWrittenEntries() {
        return maySubmit() && !handOff.isWaiting();
    }

    /** Submits what is written now if this thread may, else hands it on (the submitter, or the owner). */
    void submitWritten() {
        if (maySubmit()) {
            try {
                ring.submitPending();
            } catch (IOException e) {
                LOG.warn("io_uring submission failed (the leader retries at its next wait): {}", e.getMessage());
            }
        } else if (singleIssuer) {
            passOn();
        } else {
            submitter.wake();
        }
    }

    /**
     * After SQEs were written, outside any channel's monitor: an allowed thread submits them itself only if the
     * leader blocks in {@code io_uring_enter}; any other thread hands them on (see the class documentation).
     */
    void afterWrite() {
        if (maySubmit()) {
            if (handOff.isWaiting()) {
                submitWritten();
            }
            return;
        }
        passOn();
    }

    /**
     * Gets what a thread that may not submit wrote submitted: by an own leader's turn, by the leader blocked in its
     * enter after a ring of the doorbell, else by the submitter; on a single-issuer ring, else by the owner's next
     * wait.
     */
    private void passOn() {
        followUp(handOff.whoSubmits());
    }

    /** Offloaded handler work began (see {@code Engine.offloadBegun()}). Any thread. */
    void offloadBegun() {
        handOff.offloadBegun();
    }

    /** Offloaded handler work ended: the last end rings the doorbell for what hand-offs left without it. */
    void offloadEnded() {
        followUp(handOff.offloadEnded());
    }

    /** Carries out what was decided about entries handed off ({@link SqeHandOff#whoSubmits()}). */
    private void followUp(int whoSubmits) {
        if (whoSubmits == SqeHandOff.RING_DOORBELL && !doorbell.ring()) {
            handOff.setDoorbellUsable(false);
            whoSubmits = SqeHandOff.TO_SUBMITTER;
        }
        if (whoSubmits == SqeHandOff.TO_SUBMITTER && submitter != null) {
            submitter.wake();
        }
    }

    /**
     * Wakes a single-issuer ring's owner if it blocks in its enter (rings the doorbell; a ring while it does not
     * block ends its next wait at once): it comes back to close what was retired. Any thread.
     */
    void wakeOwner() {
        if (!doorbell.ring()) {
            handOff.setDoorbellUsable(false);
        }
    }

    /** A leader that may submit begins its turn: what others write until {@link #leaderAway()} is its to submit. */
    void beginOwnTurn() {
        handOff.beginOwnTurn();
    }

    /**
     * The calling thread, if it may submit, ends its turn (see {@link dev.proactor.spi.WaitStrategy#leaderAway()}):
     * what other threads left to it is submitted now.
     */
    void leaderAway() {
        if (maySubmit() && handOff.endOwnTurn()) {
            submitWritten();
            if (ring.hasUnsubmitted() && submitter != null) {
                submitter.wake(); // the kernel took only part: nobody else may be about to enter
            }
        }
    }

    /**
     * A leader that may not submit is about to wait: gets what is written submitted by the submitter (on a
     * single-issuer ring such a leader is the closing thread's last wait, after the owner: nobody submits any more).
     */
    void handOffUnsubmitted() {
        if (submitter != null) {
            submitter.wake();
        }
    }

    /** After a reap of {@code reaped} CQEs: continuations a leader that may not submit wrote go to the submitter. */
    void afterReap(int reaped) {
        if (reaped > 0 && submitter != null && !maySubmit()) {
            submitter.wake();
        }
    }

    /**
     * Writes one SQE, waiting for room if the queue is full. Does not submit: the caller calls {@link #afterWrite()}
     * once it holds no channel's monitor.
     *
     * @return false if the ring is closed (nothing written)
     * @throws IOException if no room appeared within {@link #ROOM_LIMIT_NANOS}
     */
    boolean writeSqe(int opcode, int ioprio, int fd, long address, int length, long offset, int opFlags,
                     long userData) throws IOException {
        return writeSqe(opcode, 0, ioprio, fd, address, length, offset, opFlags, userData);
    }

    /** As {@link #writeSqe(int, int, int, long, int, long, int, long)}, with {@code IOSQE_*} flags. */
    boolean writeSqe(int opcode, int sqeFlags, int ioprio, int fd, long address, int length, long offset,
                     int opFlags, long userData) throws IOException {
        if (singleIssuer && !mayEnter()) { // never waits for the owner: see SqeBacklog
            return ring.prepareOrQueue(opcode, sqeFlags, ioprio, fd, address, length, offset, opFlags, userData)
                    == IoUringRing.WRITTEN;
        }
        long deadline = 0;
        for (int spins = 0; ; spins++) {
            int written = ring.prepare(opcode, sqeFlags, ioprio, fd, address, length, offset, opFlags, userData);
            if (written != IoUringRing.FULL) {
                return written == IoUringRing.WRITTEN;
            }
            if (deadline == 0) {
                deadline = System.nanoTime() + ROOM_LIMIT_NANOS;
            } else if (System.nanoTime() - deadline > 0) {
                throw new IOException("io_uring submission queue full (" + ring.sqEntries() + " entries) for "
                        + TimeUnit.NANOSECONDS.toSeconds(ROOM_LIMIT_NANOS) + " s");
            }
            submitWritten();
            pause(spins);
        }
    }

    /** Spins briefly, then yields, then sleeps a few microseconds: waits that last microseconds in practice. */
    static void pause(int spins) {
        if (spins < 100) {
            Thread.onSpinWait();
        } else if (spins < 200) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(10_000);
        }
    }

    /** Leader: the doorbell's read completed with {@code result}; arms it again unless the engine is closing. */
    void onDoorbell(int result, boolean closing) {
        boolean armed = false;
        if (doorbell.onCompleted(result) && !closing) {
            try {
                armed = doorbell.arm(this);
            } catch (IOException e) {
                LOG.warn("re-arming the io_uring doorbell failed ({}); threads that may not submit hand their"
                        + " requests to the submitter thread from now on", e.getMessage());
            }
        } else if (!closing) {
            LOG.warn("the io_uring doorbell's read failed ({}); threads that may not submit hand their requests to"
                    + " the submitter thread from now on", Errors.newException("read(eventfd)", result).getMessage());
        }
        handOff.setDoorbellUsable(armed);
    }

    /** Leader: whether the doorbell rang since the last call. */
    boolean takeDoorbellRung() {
        return doorbell.takeRung();
    }

    /** How often threads that may not submit handed their SQEs to the submitter thread (tests). */
    long submitterWakeups() {
        return submitter == null ? 0 : submitter.wakeups();
    }

    /** How often the doorbell was rung (tests). */
    long doorbellRings() {
        return doorbell.rings();
    }

    /** Stops the submitter thread. Engine close, before the ring closes. */
    void stopSubmitter() {
        stopQuietly();
    }

    /** Closes the doorbell's eventfd. Engine close, after the ring closed (its read is gone with it). */
    void closeDoorbell() throws IOException {
        doorbell.close();
    }

    private void stopQuietly() {
        if (submitter == null) {
            return;
        }
        try {
            submitter.stop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
