package dev.proactor.jni.uring;

import dev.proactor.jni.Errors;
import dev.proactor.jni.engine.BounceBlocks;
import dev.proactor.jni.engine.BounceCopies;
import dev.proactor.jni.internal.DirectBuffers;
import dev.proactor.jni.internal.IoUringNative;
import dev.proactor.jni.internal.IovecArray;
import dev.proactor.jni.internal.NativeMemory;
import dev.proactor.jni.internal.SocketNative;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.OpKind;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;

/**
 * Writes for {@link IoUringOps}: a stream {@code WRITE} ({@code SEND} with {@code MSG_NOSIGNAL}) and a file
 * {@code WRITE_FILE} ({@code WRITE}, at the request's position plus the bytes written so far), from one direct
 * buffer, several direct buffers through the direction's iovecs ({@code WRITEV}), or heap buffers: on a stream, sent
 * through a shared block at start or once a poll found room ({@link IoUringOps#MODE_READY}); on a file, copied into
 * the direction's 64 KiB block ({@link BounceCopies}); the way it was built is noted in the direction ({@code mode})
 * for the completion. A write goes on until every byte is out: each partial result describes the SQE of the rest. A
 * stream write is first tried on the socket with one non-blocking system call when {@link IoUringTryFirst} says
 * so, the first time only; a file write is checked against an {@code O_DIRECT} file's alignment before its SQE is
 * written.
 *
 * <p>Stateless; the caller holds the channel's monitor (a starting thread, or the leader handling the write's
 * completion, which describes the next SQE). Errors are thrown for the caller to record as the request's result:
 * an {@link IOException} for a failed write or for the rest of one whose channel was closed or cancelled
 * meanwhile, an {@link IllegalArgumentException} for a buffer the file's {@code O_DIRECT} alignment refuses.
 */
final class IoUringWriteOps {

    private IoUringWriteOps() {
    }

    /**
     * Describes the SQE of the write's next step, unless it finished at once (tried on the socket, or nothing
     * (left) to write).
     *
     * @return the SQE to write, or null if the request finished without one (result recorded)
     */
    static IoUringSqe submitWrite(IoUringOpsContext context, IoUringDirection dir, IoRequest request, boolean file)
            throws IOException {
        IoUringChannel channel = dir.channel;
        long offset = file ? request.position() + request.bytes() : 0;
        if (request.length() == 1 && request.firstBuffer().isDirect()) {
            ByteBuffer buffer = request.firstBuffer();
            long base = dir.scratch.baseAddress(buffer);
            int position = buffer.position();
            int limit = buffer.limit();
            DirectBuffers.checkRange(buffer, position, limit);
            if (position == limit) {
                return null; // nothing (left) to write
            }
            dir.mode = IoUringOps.MODE_SINGLE;
            dir.startPosition = position;
            if (file) {
                IoUringOps.checkDirect(channel, base + position, limit - position, offset);
                return dir.sqe.describe(IoUringNative.OP_WRITE, 0, channel.fd, base + position, limit - position,
                        offset, 0);
            }
            int ioprio = 0;
            if (tryWrite(context, request)) {
                int result = SocketNative.sendto(channel.fd, base + position, limit - position,
                        IoUringNative.MSG_DONTWAIT, null);
                if (!Errors.isAgain(result)) {
                    return completeWrite(context, dir, request, result);
                }
                ioprio = context.pollFirstPriority(); // the socket is full: wait for room before trying
            }
            return dir.sqe.describe(IoUringNative.OP_SEND, ioprio, channel.fd, base + position, limit - position,
                    0, IoUringNative.MSG_NOSIGNAL);
        }
        if (DirectBuffers.allDirect(request)) {
            IovecArray iovecs = IoUringOps.iovecs(dir, request, false, file, offset);
            if (iovecs.count() == 0) {
                return null;
            }
            dir.mode = IoUringOps.MODE_VECTOR;
            if (!file && tryWrite(context, request)) {
                long result = SocketNative.sendIov(channel.fd, iovecs.address(), iovecs.count(),
                        IoUringNative.MSG_DONTWAIT);
                if (!Errors.isAgain(result)) {
                    return completeWrite(context, dir, request, (int) result);
                }
            }
            return dir.sqe.describe(IoUringNative.OP_WRITEV, 0, channel.fd, iovecs.address(), iovecs.count(),
                    offset, 0);
        }
        if (!file) {
            return submitHeapWrite(context, dir, request, tryWrite(context, request));
        }
        IoUringOps.refuseHeapBuffer(channel);
        NativeMemory bounce = dir.scratch.bounce();
        int filled = BounceCopies.fill(bounce, request);
        if (filled == 0) {
            return null;
        }
        dir.mode = IoUringOps.MODE_BOUNCE;
        return dir.sqe.describe(IoUringNative.OP_WRITE, 0, channel.fd, bounce.address(), filled, offset, 0);
    }

    /**
     * A stream write from heap buffers ({@link IoUringOps#MODE_READY}): sent at once through a shared block if
     * {@code sendNow}; else, or if the socket was full, a poll for room goes to the ring and the bytes are sent when
     * it completes ({@link #readyToWrite}). A SEND in the ring would need a copy in native memory of the
     * connection's own for as long as it waits.
     *
     * @return the SQE to write (a poll for room), or null if the write finished (result recorded)
     */
    private static IoUringSqe submitHeapWrite(IoUringOpsContext context, IoUringDirection dir, IoRequest request,
                                              boolean sendNow) throws IOException {
        dir.mode = IoUringOps.MODE_READY;
        if (sendNow) {
            int result = BounceBlocks.send(dir.channel.fd, request, IoUringNative.MSG_DONTWAIT);
            if (result == 0) {
                return null; // nothing was left to copy (the buffers were changed meanwhile)
            }
            if (!Errors.isAgain(result)) {
                return completeWrite(context, dir, request, result);
            }
        }
        return IoUringOps.pollFor(dir, IoUringNative.POLLOUT);
    }

    /**
     * At the completion of a {@link IoUringOps#MODE_READY} write's poll: sends through a shared block, and goes on
     * as any write does (a poll for room while bytes are left).
     *
     * @return the next SQE to write (a poll for room), or null if the write finished (result recorded)
     */
    static IoUringSqe readyToWrite(IoUringOpsContext context, IoUringDirection dir, IoRequest request,
                                   int pollResult) throws IOException {
        IoUringOps.checkReady(dir, pollResult);
        return submitHeapWrite(context, dir, request, true);
    }

    /**
     * Whether a stream write is tried on the socket at start, whatever its buffers: with {@code tryFirst}, the
     * first time only (what remains after a partial write waits for room in the ring); always when a thread blocks
     * for it ({@link IoRequest#awaited()}).
     */
    private static boolean tryWrite(IoUringOpsContext context, IoRequest request) {
        return request.bytes() == 0 && (request.awaited() || context.tryFirst().tryAtStart());
    }

    /**
     * Records the bytes a step wrote (the buffers' positions moved over them) and describes the next step's SQE if
     * any are left.
     *
     * @return the next SQE to write, or null if the request finished
     */
    static IoUringSqe completeWrite(IoUringOpsContext context, IoUringDirection dir, IoRequest request, int result)
            throws IOException {
        boolean file = request.kind() == OpKind.WRITE_FILE;
        if (Errors.isAgain(result) && !file) {
            result = 0; // the socket is full (a first try at start): the rest goes to the ring below
        }
        if (result < 0) {
            throw Errors.newException(file ? "write" : "send", result);
        }
        switch (dir.mode) {
            case IoUringOps.MODE_SINGLE:
                request.firstBuffer().position(dir.startPosition + result);
                break;
            case IoUringOps.MODE_VECTOR:
                dir.scratch.currentIovecs().advance(result);
                break;
            default:
                BounceCopies.advance(request, result);
                break;
        }
        request.addBytes(result);
        if (!request.hasRemaining()) {
            return null;
        }
        if (!dir.channel.usable() || dir.cancelReason != null) {
            throw new AsynchronousCloseException(); // replaced by the cancel reason when there is one
        }
        return submitWrite(context, dir, request, file);
    }
}
