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
 * here), and writes every SQE of a request's steps: the first at start, each next one ({@link #prepare}) when the
 * leader's completion handler ({@link IoUringReaper}) continues the request (a partial write, an aborted accept,
 * the next piece of a transmission). The request side of the ring: a request takes its slot here and gives it back
 * here if it never reached the ring; the reaper frees the slot at the request's last CQE.
 *
 * <p>Threads and locks: any thread starts and cancels, under the channel's monitor, and submits or hands on what it
 * wrote ({@link IoUringSubmission#afterWrite()}) only once it left that monitor. {@link #prepare},
 * {@link #pollFirstPriority()} and {@link #tryFirst()} are for {@link IoUringOps} and its per-kind classes, with the
 * channel's monitor held (a starting thread, or the leader handling a completion). A request that fails at start is
 * failed and reported as completed; nothing is thrown. A cancel that cannot be written is logged and left for a
 * later cancel or the channel's close.
 *
 * <p>Errors: anything a step throws, {@link Error}s included, is recorded as its request's result (at start here, in
 * the leader by {@link IoUringReaper}) and the direction is freed, as for an I/O error.
 */
final class IoUringStarter {

    /** The engine's logger: a failed cancel is logged under the same name as before this code moved here. */
    private static final Logger LOG = LoggerFactory.getLogger(IoUringEngine.class);

    private final IoUringFeatures features;
    private final IoUringSubmission submission;
    private final IoUringSlots slots;
    private final IoUringTryFirst tryFirst;
    /** The engine's provided-buffer ring, or null (off, or the kernel refused it). */
    private final IoUringBufferRing providedBuffers;
    /**
     * Tests only: runs on the writing thread before each SQE of a request is written (at start, and for each next
     * step in the leader), so a test can make a step throw (null in production).
     */
    volatile Runnable beforeSqe;

    IoUringStarter(IoUringFeatures features, IoUringSubmission submission, IoUringSlots slots,
                   IoUringTryFirst tryFirst, IoUringBufferRing providedBuffers) {
        this.features = features;
        this.submission = submission;
        this.slots = slots;
        this.tryFirst = tryFirst;
        this.providedBuffers = providedBuffers;
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
                dir.slot = slots.allocate(dir);
                inRing = IoUringOps.start(this, dir, request);
            } catch (Throwable e) {
                // Whatever is thrown once the direction holds the request (an Error too, e.g. no direct memory for
                // a scratch block) is the request's result: no SQE of it is in the ring (each step writes its SQE
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

    /** For {@link IoUringOps}: writes an SQE of the direction's request, with its slot as user data. */
    boolean prepare(IoUringDirection dir, int opcode, int ioprio, int fd, long address, int length, long offset,
                    int opFlags) throws IOException {
        return prepare(dir, opcode, 0, ioprio, fd, address, length, offset, opFlags);
    }

    /** As the other {@code prepare}, with {@code IOSQE_*} flags. */
    private boolean prepare(IoUringDirection dir, int opcode, int sqeFlags, int ioprio, int fd, long address,
                            int length, long offset, int opFlags) throws IOException {
        Runnable hook = beforeSqe;
        if (hook != null) {
            hook.run();
        }
        if (!submission.writeSqe(opcode, sqeFlags, ioprio, fd, address, length, offset, opFlags, dir.slot)) {
            throw new AsynchronousCloseException(); // the engine is closed
        }
        return true;
    }

    /**
     * For {@link IoUringReadOps}: writes a stream {@code RECV} of the direction's request that takes a block of the
     * provided-buffer ring when bytes arrive, reading at most {@code length} bytes.
     */
    boolean prepareProvidedRecv(IoUringDirection dir, int ioprio, int length) throws IOException {
        return prepare(dir, IoUringNative.OP_RECV, IoUringNative.IOSQE_BUFFER_SELECT, ioprio, dir.channel.fd, 0, length,
                0, 0);
    }

    /** The engine's provided-buffer ring, or null if it has none. */
    IoUringBufferRing providedBuffers() {
        return providedBuffers;
    }

    /**
     * The {@code ioprio} of a stream {@code RECV} or {@code SEND} whose try at start has just found the socket empty
     * (full): {@code POLL_FIRST} when enabled, so the kernel waits for readiness instead of trying again at once.
     */
    int pollFirstPriority() {
        return features.pollFirst() ? IoUringNative.RECVSEND_POLL_FIRST : 0;
    }

    /** Whether operations the calling thread starts are tried on the socket first. */
    IoUringTryFirst tryFirst() {
        return tryFirst;
    }
}
