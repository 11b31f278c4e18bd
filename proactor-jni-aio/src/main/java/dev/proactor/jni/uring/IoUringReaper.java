package dev.proactor.jni.uring;

import dev.proactor.jni.Errors;
import dev.proactor.jni.internal.IoUringNative;
import dev.proactor.spi.IoRequest;
import java.io.IOException;
import java.nio.channels.AsynchronousCloseException;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's side of one {@link IoUringEngine}: reaps the completion queue, turns each CQE into a finished
 * request (queued for the wait strategy) or the request's next step (both through
 * {@link IoUringStarter#advance}), and handles the engine's own CQEs (interrupt NOPs, the doorbell's read,
 * cancels); after each reap it closes what was retired (see {@link RetiredDescriptors}). It also runs the engine's
 * {@code quiesce}, the last reaps with no leader.
 *
 * <p>Threads and locks: the leader only ({@link IoUringWaitStrategy}, {@link IoUringBusyPollWaitStrategy}), or the
 * thread that quiesces the engine once no leader is left; so the queue of completed requests and the completion
 * queue's head need no lock. Each request's CQE is handled under its channel's monitor (lock order: channel, then
 * ring). An error in handling a request's CQE ({@link Error}s included) fails that request (with the cancel's reason
 * if one was asked, else with {@link AsynchronousCloseException} if the channel was closed, else with the error),
 * never the reap; a CQE of a slot without a request is logged and ignored. {@link #quiesce} throws nothing: it
 * retries its enters until its time limit and logs what is still in flight then (the ring's close cancels it, and the
 * engine keeps their memory: {@link IoUringLeftovers}); an enter that fails with other than a wake-up
 * ({@link IoUringRing#isTransient}) is logged and ends the wait at once, as it would only fail again.
 */
final class IoUringReaper {

    /** The engine's logger: stray CQEs and quiesce's leftovers are logged under the same name as before this move. */
    private static final Logger LOG = LoggerFactory.getLogger(IoUringEngine.class);

    private static final long QUIESCE_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(30);

    /** Asked whether it is closing: a doorbell read that completes then is not armed again. */
    private final IoUringEngine engine;
    private final IoUringRing ring;
    private final IoUringSubmission submission;
    /** Records a CQE's result in its request, and writes the next SQE of a request that goes on. */
    private final IoUringStarter starter;
    private final IoUringSlots slots;
    private final RetiredDescriptors retired;
    private final IoUringTryFirst tryFirst;
    private final IoUringInterruptStrategy interrupt;
    /** Requests completed, for the leader to hand out; only the leader (or quiesce, with no leader) touches it. */
    private final ArrayDeque<IoRequest> completed;
    /** The engine's provided-buffer ring, or null: every block a CQE carries is given back here. */
    private final IoUringBufferRing providedBuffers;
    private final IoUringCompletionQueue.CompletionHandler onCompletion = this::onCompletion;
    /** How long {@link #quiesce} waits for the last completions; tests make it shorter. */
    private volatile long quiesceLimitNanos = QUIESCE_LIMIT_NANOS;

    IoUringReaper(IoUringEngine engine, IoUringRing ring, IoUringSubmission submission, IoUringStarter starter,
                  IoUringSlots slots, RetiredDescriptors retired, IoUringInterruptStrategy interrupt,
                  ArrayDeque<IoRequest> completed, IoUringBufferRing providedBuffers) {
        this.providedBuffers = providedBuffers;
        this.engine = engine;
        this.ring = ring;
        this.submission = submission;
        this.starter = starter;
        this.slots = slots;
        this.retired = retired;
        this.tryFirst = starter.tryFirst();
        this.interrupt = interrupt;
        this.completed = completed;
    }

    /** Reaps every CQE now in the ring; continuations written meanwhile go to the submitter if need be. Leader only. */
    int reap() {
        int n = ring.completions().reap(onCompletion);
        submission.afterReap(n);
        retired.closeConsumed(ring);
        return n;
    }

    /**
     * Whether descriptors wait for the owner to submit their SQEs and close them: the owner then submits without
     * blocking first, as an enter that blocks would take them in and only close them at its next completion.
     */
    boolean hasRetired() {
        return retired.waiting();
    }

    /** Leader, at the start of a turn, before its first reap (see {@link IoUringTryFirst#turns()}). */
    void turnStarted() {
        tryFirst.turnStarted();
    }

    /** Leader, at the end of a turn: the turn completed {@code completions} requests (see {@link IoUringTryFirst}). */
    void turnEnded(int completions) {
        tryFirst.turnEnded(completions);
    }

    /**
     * Handles one CQE; a block of the provided-buffer ring it carries is given back once it was handled, whatever
     * became of its request. Leader (or quiesce) only.
     */
    private void onCompletion(long userData, int result, int flags) {
        int block = providedBuffers == null ? -1 : IoUringBufferRing.selected(flags);
        if (block < 0) {
            handle(userData, result, flags, -1);
            return;
        }
        boolean held = false;
        try {
            held = handle(userData, result, flags, block);
        } finally {
            if (!held) {
                providedBuffers.giveBack(block);
            }
        }
    }

    /**
     * Handles one CQE (its {@code IORING_CQE_F_*} {@code flags}) whose provided block, if any, is {@code block}.
     *
     * @return whether a multishot receive holds the block past this CQE (else the caller gives it back)
     */
    private boolean handle(long userData, int result, int flags, int block) {
        if (userData == IoUringEngine.INTERRUPT_TAG) {
            interrupt.onNopCompleted();
            return false;
        }
        if (userData == IoUringEngine.DOORBELL_TAG) {
            submission.onDoorbell(result, engine.isClosing());
            return false;
        }
        if (userData < 0) {
            return false; // a cancel's own completion
        }
        IoUringDirection dir = slots.get(userData);
        if (dir == null) {
            LOG.error("io_uring completion for unknown slot {} (result {}) ignored", userData, result);
            if (block >= 0) {
                providedBuffers.giveBackRest(block, result);
            }
            return false;
        }
        synchronized (dir.channel) {
            try {
                return handleLocked(dir, userData, result, flags, block);
            } finally {
                if (block >= 0) {
                    // A bundle's blocks after the first, but those its read left held (see IoUringBundles): here,
                    // under the monitor a later read takes and releases held blocks under.
                    providedBuffers.giveBackRest(block, result);
                }
            }
        }
    }

    /** {@link #handle} of a CQE of one of the engine's channels, under the channel's monitor. */
    private boolean handleLocked(IoUringDirection dir, long userData, int result, int flags, int block) {
        IoUringChannel channel = dir.channel;
        IoUringMultishot multishot = dir.multishotRequest();
        if (multishot != null && multishot.slot() == (int) userData) {
            return onMultishot(dir, multishot, result, flags, block);
        }
        IoRequest request = dir.request;
        if (request == null || dir.slot != (int) userData) {
            LOG.error("io_uring completion for slot {} without a request (result {}) ignored", userData, result);
            return false;
        }
        boolean done;
        dir.selectedBlock = block;
        try {
            done = starter.advance(dir, request, result);
        } catch (Throwable e) {
            // An Error too (e.g. no direct memory for the next step's block): no SQE of the request is in the
            // ring (a step's SQE is written last), so it ends here; else its direction would stay taken.
            request.fail(dir.cancelReason != null ? dir.cancelReason
                    : channel.usable() ? e : new AsynchronousCloseException());
            done = true;
        } finally {
            dir.selectedBlock = -1;
        }
        if (done) {
            finish(dir, request);
        }
        return false;
    }

    /**
     * A CQE of the direction's multishot request ({@link IoUringMultishot}), under the channel's monitor: one without
     * {@code F_MORE} ends it (its slot is freed). A receive ({@link IoUringMultishotRecv}) holds what it brought, and
     * a read waiting for it finishes with it (or receives on its own, or arms the receive again:
     * {@link IoUringReadOps}); an accept ({@link IoUringMultishotAccept}) hands its connection to the accept waiting
     * for it, or holds it when none is. With no request waiting, a multishot that holds what it may is cancelled (a
     * slow reader: the ring's blocks are every channel's; an accept held: take no more ahead of the application).
     * On a closed channel nothing is held (its close gave the held blocks back; a connection is reset) and a request
     * still waiting ends with {@link AsynchronousCloseException}.
     *
     * @return whether the receive holds {@code block} past this CQE
     */
    private boolean onMultishot(IoUringDirection dir, IoUringMultishot multishot, int result, int flags, int block) {
        if ((flags & IoUringNative.CQE_F_MORE) == 0) {
            slots.free(multishot.slot());
            multishot.ended();
        }
        IoRequest request = dir.request != null && dir.mode == IoUringOps.MODE_MULTISHOT && dir.slot < 0
                ? dir.request : null;
        IoUringMultishotAccept accept = dir.multishotAccept;
        if (!dir.channel.usable()) {
            if (request != null) {
                request.fail(new AsynchronousCloseException());
                finish(dir, request);
            }
            if (accept != null) {
                accept.untaken(dir, result); // reset
            }
            return false;
        }
        boolean held = false;
        if (accept == null) {
            held = dir.multishot.hold(result, block, providedBuffers); // the read waiting, if any, takes it there
        } else if (request == null) {
            accept.untaken(dir, result);
        }
        if (request == null) {
            if (multishot.needsCancel()) {
                starter.cancelMultishot(dir);
            }
            return held;
        }
        boolean done;
        try {
            done = starter.advance(dir, request, result);
        } catch (Throwable e) { // as for any request's step (see handle)
            request.fail(dir.channel.usable() ? e : new AsynchronousCloseException());
            done = true;
        }
        if (done) {
            finish(dir, request);
        }
        return held;
    }

    /** The direction's request finished: frees its slot, if it took one, and queues it for the wait strategy. */
    private void finish(IoUringDirection dir, IoRequest request) {
        if (dir.slot >= 0) {
            slots.free(dir.slot);
        }
        dir.clear();
        completed.add(request);
    }

    /** Tests: how long {@link #quiesce} waits for the last completions (30 s otherwise). */
    void quiesceLimit(long nanos) {
        quiesceLimitNanos = nanos;
    }

    /**
     * Waits, reaping completions, until no request is in the ring any more (every channel was closed and its
     * requests cancelled before), so the last wait finds every completion. Called with no leader. Throws nothing:
     * at its time limit, or at an enter that fails, it logs and returns (see the class documentation).
     */
    void quiesce() {
        try {
            submission.claim(); // a single-issuer ring nobody ever led: this last wait is the closing thread's
        } catch (IOException e) {
            LOG.warn("enabling the io_uring ring to collect its requests failed: {}", e.getMessage());
        }
        if (!submission.mayEnter()) {
            // Its owner collected everything before it left (the core's owner mode): what is left is reaped only.
            reap();
            if (slots.inUse() > 0) {
                LOG.warn("{} io_uring requests still in flight after the ring's owner left; the ring's close cancels"
                        + " them", slots.inUse());
            }
            return;
        }
        long limit = quiesceLimitNanos;
        long deadline = System.nanoTime() + limit;
        while (slots.inUse() > 0 && System.nanoTime() - deadline < 0) {
            submission.submitWritten(); // the closing thread may be a user thread: it does not submit itself
            int result = ring.enter(0, 1, TimeUnit.MILLISECONDS.toNanos(50));
            reap();
            if (!IoUringRing.isTransient(result)) {
                // A failed enter (EFAULT, EINVAL, EBADFD, ...) returns at once and fails the same way again: retried
                // until the time limit it would spin. The leaders throw on it; quiesce throws nothing, so it stops.
                LOG.error("io_uring_enter failed while collecting the last completions; the ring's close cancels the"
                        + " {} requests still in flight", slots.inUse(), Errors.newException("io_uring_enter", result));
                return;
            }
        }
        int left = slots.inUse();
        if (left > 0) {
            LOG.warn("{} io_uring requests still in flight after {} s; the ring's close cancels them", left,
                    TimeUnit.NANOSECONDS.toSeconds(limit));
        }
    }
}
