package dev.proactor.jni.uring;

import dev.proactor.jni.internal.IoUringNative;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.StartResult;
import java.io.IOException;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedChannelException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How one {@link IoUringEngine} starts and cancels requests (the engine's {@code start} and {@code cancel} delegate
 * here), and the one writer of every SQE of a request's steps: the first at start, each next one ({@link #advance})
 * when the leader's completion handler ({@link IoUringReaper}) continues the request (a partial write, an aborted
 * accept, the next piece of a transmission). The operation classes ({@link IoUringOps} and the classes of each kind)
 * only describe the step's SQE ({@link IoUringSqe}) or answer that the request finished without one; they never call
 * back here. The request side of the ring: a request takes its slot here and gives it back here if it never reached
 * the ring; the reaper frees the slot at the request's last CQE.
 *
 * <p>Threads and locks: any thread starts and cancels, under the channel's monitor, and submits or hands on what it
 * wrote ({@link IoUringSubmission#afterWrite()}) only once it left that monitor; {@link #advance} is for the leader,
 * with the channel's monitor held. A request that fails at start is failed and reported as completed; nothing is
 * thrown. A cancel that cannot be written is logged and left for a later cancel or the channel's close.
 *
 * <p>Errors: anything a step throws, {@link Error}s included, is recorded as its request's result (at start here, in
 * the leader by {@link IoUringReaper}) and the direction is freed, as for an I/O error.
 */
final class IoUringStarter {

    /** The engine's logger: a failed cancel is logged under the same name as before this code moved here. */
    private static final Logger LOG = LoggerFactory.getLogger(IoUringEngine.class);

    private final IoUringSubmission submission;
    private final IoUringSlots slots;
    /** An awaited read's start while its channel's multishot receive is armed. */
    private final IoUringAwaitedMultishot awaitedMultishot;
    /** What the operation classes read of the engine. */
    private final IoUringOpsContext context;
    /**
     * Tests only: runs on the writing thread before each SQE of a request is written (at start, and for each next
     * step in the leader), so a test can make a step throw (null in production).
     */
    volatile Runnable beforeSqe;

    IoUringStarter(IoUringSubmission submission, IoUringSlots slots, IoUringOpsContext context, IoUringRing ring) {
        this.submission = submission;
        this.slots = slots;
        this.awaitedMultishot = new IoUringAwaitedMultishot(submission, slots, ring, context, this::cancelMultishot);
        this.context = context;
    }

    /**
     * Writes the request's SQE. It is submitted at once when the leader is blocked in {@code io_uring_enter} (that
     * thread would not see it otherwise) or when a thread blocks for it ({@link IoRequest#awaited()}: the next
     * enter may be the blocked thread's own), else by the leader's next enter together with everything else written
     * meanwhile: one system call per batch.
     */
    StartResult start(IoRequest request) {
        IoUringChannel channel = (IoUringChannel) request.channel();
        IoUringDirection dir = request.kind().isInput() ? channel.input : channel.output;
        synchronized (channel) {
            if (!channel.usable()) {
                request.fail(new ClosedChannelException());
                return StartResult.COMPLETED;
            }
            if (dir.request != null) {
                request.fail(new IllegalStateException("another request is pending in this direction of "
                        + channel));
                return StartResult.COMPLETED;
            }
            dir.request = request;
            boolean inRing = false;
            try {
                IoUringSqe sqe = IoUringOps.start(context, dir, request);
                if (sqe == IoUringSqe.WAITS_FOR_MULTISHOT && request.awaited()) {
                    sqe = awaitedMultishot.start(dir, request);
                }
                if (sqe == IoUringSqe.WAITS_FOR_MULTISHOT) {
                    return StartResult.PENDING; // nothing written: the armed multishot's next CQE ends it
                }
                inRing = write(dir, request, sqe);
            } catch (Throwable e) {
                // Whatever is thrown once the direction holds the request (an Error too, e.g. no direct memory for
                // a scratch block) is the request's result: no SQE of it is in the ring (a step's SQE is written
                // last), so the direction is freed below; else it would refuse every later request.
                request.fail(e);
            }
            if (!inRing) {
                if (dir.slot >= 0) {
                    slots.free(dir.slot);
                }
                dir.clear();
                return StartResult.COMPLETED;
            }
        }
        if (request.awaited()) {
            submission.submitWritten();
        } else {
            submission.afterWrite();
        }
        return StartResult.PENDING;
    }

    /**
     * Asks the kernel to cancel the request ({@code IORING_OP_ASYNC_CANCEL} on its user data) and returns false:
     * the request completes through the ring, exactly once, whatever order its CQE and the cancel's arrive in. Its
     * own CQE is the only one that ends it: a result that had already been reached is kept (as the core's contract
     * says), any error or interrupted continuation becomes {@code reason}.
     */
    boolean cancel(IoRequest request, Throwable reason) {
        IoUringChannel channel = (IoUringChannel) request.channel();
        if (channel == null) {
            return false;
        }
        synchronized (channel) {
            IoUringDirection dir = request.kind().isInput() ? channel.input : channel.output;
            if (dir.request != request || dir.cancelReason != null) {
                return false;
            }
            if (dir.slot < 0) {
                if (dir.mode != IoUringOps.MODE_MULTISHOT) {
                    // Its start runs (IoUringAwaitedMultishot lets go of the monitor): the core acts after.
                    return false;
                }
                // A request waiting for its direction's multishot request (a read for the receive, an accept for the
                // accept) has no SQE of its own: it ends here, and the multishot stays armed (what it brings is held
                // for the next request).
                request.fail(reason);
                dir.clear();
                return true;
            }
            try {
                if (!submission.writeSqe(IoUringNative.OP_ASYNC_CANCEL, 0, -1, dir.slot, 0, 0, 0,
                        IoUringEngine.CANCEL_TAG)) {
                    return false; // the ring is closed: closing it cancels the request
                }
            } catch (IOException e) {
                // The queue stayed full: leave the request unmarked so a later cancel or close tries again.
                LOG.warn("cancelling {} on {} failed: {}", request.kind(), channel, e.getMessage());
                return false;
            }
            dir.cancelReason = reason;
        }
        submission.afterWrite();
        return false;
    }

    /**
     * The leader, at the CQE of the direction's request: records its result, and writes the request's next SQE if
     * it goes on. The channel's monitor is held.
     *
     * @return true if the request finished (result recorded), false if its next SQE is in the ring
     * @throws IOException on an error the caller records as the result
     */
    boolean advance(IoUringDirection dir, IoRequest request, int result) throws IOException {
        return !write(dir, request, IoUringOps.complete(context, dir, request, result));
    }

    /**
     * Writes the step's SQE, if the operation classes described one, with the direction's slot as user data (taken
     * with the request's first SQE), or, for the SQE that arms the direction's multishot request, with a slot of the
     * multishot's own ({@link IoUringMultishot}).
     *
     * @param sqe the step's SQE, or null when the request finished without one
     * @return true if an SQE is in the ring, false if the request finished without one
     * @throws IOException if the SQE cannot be written (the engine is closed); the step's resources are released
     *         first ({@link IoUringOps#abandon})
     */
    private boolean write(IoUringDirection dir, IoRequest request, IoUringSqe sqe) throws IOException {
        if (sqe == null) {
            return false;
        }
        if (sqe == IoUringSqe.WAITS_FOR_MULTISHOT) {
            return true; // it waits for its direction's armed multishot request
        }
        // Made by the operation that described its SQE, which describes one only while it is not armed: armed in the
        // catch below means armed by this write.
        IoUringMultishot multishot = sqe.multishot ? dir.multishotRequest() : null;
        try {
            Runnable hook = beforeSqe;
            if (hook != null) {
                hook.run();
            }
            long userData;
            if (multishot != null) {
                // The multishot has a slot of its own, kept until its last CQE; the request waits with none.
                multishot.arm(slots.allocate(dir));
                userData = multishot.slot();
            } else {
                if (dir.slot < 0) {
                    dir.slot = slots.allocate(dir); // taken with the request's first SQE
                }
                userData = dir.slot;
            }
            if (!submission.writeSqe(sqe.opcode, sqe.sqeFlags, sqe.ioprio, sqe.fd, sqe.address, sqe.length,
                    sqe.offset, sqe.opFlags, userData)) {
                throw new AsynchronousCloseException(); // the engine is closed
            }
        } catch (Throwable e) { // an Error too: what the step holds must not stay held until the channel closes
            if (multishot != null && multishot.armed()) {
                slots.free(multishot.slot());
                multishot.ended();
            }
            IoUringOps.abandon(dir, request);
            throw e;
        }
        return true;
    }

    /**
     * Cancels the direction's armed multishot request ({@code IORING_OP_ASYNC_CANCEL} on its own slot): when it
     * holds what it may with no request pending ({@link IoUringMultishot#needsCancel()}: a receive its blocks, an
     * accept a connection), when an awaited read collects its receive's CQEs, or when its channel closes. Its last CQE ({@code -ECANCELED}, or what came first) frees its slot; the next request arms it
     * again. The channel's monitor is held; what is written is submitted by the caller's side (the leader's next
     * enter, the awaited read's own submit, or the closing channel's wait for its SQEs). A cancel that cannot be
     * written is logged and asked again at the multishot's next CQE or the channel's close.
     */
    void cancelMultishot(IoUringDirection dir) {
        IoUringMultishot multishot = dir.multishotRequest();
        try {
            if (submission.writeSqe(IoUringNative.OP_ASYNC_CANCEL, 0, -1, multishot.slot(), 0, 0, 0,
                    IoUringEngine.CANCEL_TAG)) {
                multishot.cancelWritten();
            }
        } catch (IOException e) {
            LOG.warn("cancelling the multishot request of {} failed: {}", dir.channel, e.getMessage());
        }
    }

    /**
     * The channel closes (its monitor held, no request pending: the core cancelled it): its input's multishot request
     * gives back what it holds (a receive's blocks go back to the ring, an accept's connections are reset, as those
     * left in a closed listener's backlog are) and is cancelled if armed. The closing thread's wait for the channel's
     * SQEs ({@link IoUringChannels#release}) submits the cancel.
     */
    void closeMultishot(IoUringDirection dir) {
        IoUringMultishot multishot = dir.multishotRequest();
        if (multishot == null) {
            return;
        }
        IoUringBufferRing provided = context.providedBuffers();
        if (dir.multishot != null && provided != null) {
            dir.multishot.releaseAll(provided);
        }
        if (dir.multishotAccept != null) {
            dir.multishotAccept.close();
        }
        if (multishot.armed() && !multishot.cancelAsked()) {
            cancelMultishot(dir);
        }
    }

    /** The engine's provided-buffer ring, or null if it has none. */
    IoUringBufferRing providedBuffers() {
        return context.providedBuffers();
    }

    /** Whether operations the calling thread starts are tried on the socket first. */
    IoUringTryFirst tryFirst() {
        return context.tryFirst();
    }
}
