package dev.proactor.jni.uring;

import dev.proactor.jni.Errors;
import dev.proactor.jni.engine.BounceBlocks;
import dev.proactor.jni.engine.BounceCopies;
import dev.proactor.jni.engine.NativeScratch;
import dev.proactor.jni.internal.DirectBuffers;
import dev.proactor.jni.internal.IoUringNative;
import dev.proactor.jni.internal.IovecArray;
import dev.proactor.jni.internal.SocketNative;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.OpKind;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Reads for {@link IoUringOps}: a stream {@code READ}, and a file {@code READ_FILE} at the request's position, into
 * one direct buffer ({@code RECV}, or {@code READ} on a file), several direct buffers through the direction's iovecs
 * ({@code READV}), or heap buffers: on a stream, a {@code RECV} into a block (or a bundle of blocks) of the engine's
 * provided-buffer ring ({@link IoUringOps#MODE_PROVIDED}), or without one a poll for input and then a receive through
 * a shared block ({@link IoUringOps#MODE_READY}); on a file, the direction's 64 KiB block (copied out by
 * {@link BounceCopies}); the way it was built is noted in the direction ({@code mode}) for the completion. A stream
 * read is first tried on the socket with one non-blocking system call when {@link IoUringTryFirst} says so, unless the
 * direction's last read drained the socket with no leader turn since. A {@code RECV} polls first
 * ({@code IORING_RECVSEND_POLL_FIRST}) after such a try found the socket empty, or when the last read drained it:
 * otherwise it goes to the ring untried and the kernel tries it when it takes the SQE, which costs no system call and,
 * for a read submitted with a batch at the leader's next enter, often finds the peer's bytes there already. A file
 * read is checked against an {@code O_DIRECT} file's alignment before its SQE is written.
 *
 * <p>Stateless; the caller holds the channel's monitor (a starting thread, or the leader handling the read's
 * completion). Errors are thrown for the caller to record as the request's result: an {@link IOException} for a failed
 * read, an {@link IllegalArgumentException} for a buffer the file's {@code O_DIRECT} alignment refuses.
 */
final class IoUringReadOps {

    private IoUringReadOps() {
    }

    /**
     * Describes the SQE of the read, unless the read finished at once (tried on the socket, or nothing to read
     * into).
     *
     * @return the SQE to write, or null if the request finished without one (result recorded)
     */
    static IoUringSqe submitRead(IoUringOpsContext context, IoUringDirection dir, IoRequest request, boolean file)
            throws IOException {
        if (!file && dir.multishot != null && dir.multishot.active()) {
            return fromMultishot(context, dir, request);
        }
        return submitRead(context, dir, request, file, true);
    }

    /**
     * As {@link #submitRead(IoUringOpsContext, IoUringDirection, IoRequest, boolean)} with the direction's multishot
     * receive neither armed nor holding anything; {@code mayArm}: whether a stream read may arm it (false for the
     * read whose receive just found the ring empty: it receives once on its own).
     */
    private static IoUringSqe submitRead(IoUringOpsContext context, IoUringDirection dir, IoRequest request,
                                         boolean file, boolean mayArm) throws IOException {
        IoUringChannel channel = dir.channel;
        long offset = file ? request.position() : 0;
        if (request.length() == 1 && request.firstBuffer().isDirect()) {
            ByteBuffer buffer = request.firstBuffer();
            long base = dir.scratch.baseAddress(buffer);
            int position = buffer.position();
            int limit = buffer.limit();
            DirectBuffers.checkRange(buffer, position, limit);
            if (position == limit) {
                request.complete(0);
                return null;
            }
            dir.mode = IoUringOps.MODE_SINGLE;
            dir.startPosition = position;
            if (file) {
                IoUringOps.checkDirect(channel, base + position, limit - position, offset);
                return dir.sqe.describe(IoUringNative.OP_READ, 0, channel.fd, base + position, limit - position,
                        offset, 0);
            }
            dir.asked = limit - position;
            // Untried, the kernel tries the socket when it takes the SQE (at no system call of ours), unless the last
            // read drained it: then it polls first, as the receive would find nothing.
            int ioprio = drained(dir) ? context.pollFirstPriority() : 0;
            if (tryRead(context, dir, request)) {
                int result = SocketNative.recvfrom(channel.fd, base + position, limit - position,
                        IoUringNative.MSG_DONTWAIT, null);
                if (!Errors.isAgain(result)) {
                    completeRead(context, dir, request, result);
                    return null;
                }
                ioprio = context.pollFirstPriority(); // the socket is empty: wait for data before trying
            }
            if (mayArm && context.multishotRecv() == IoUringFeatures.MultishotRecv.ALL && context.mayArmMultishot()) {
                return armMultishot(dir);
            }
            return dir.sqe.describe(IoUringNative.OP_RECV, ioprio, channel.fd, base + position,
                    limit - position, 0, 0);
        }
        if (DirectBuffers.allDirect(request)) {
            IovecArray iovecs = IoUringOps.iovecs(dir, request, true, file, offset);
            if (iovecs.count() == 0) {
                request.complete(0);
                return null;
            }
            dir.mode = IoUringOps.MODE_VECTOR;
            if (!file) {
                dir.asked = iovecs.totalLength();
                if (tryRead(context, dir, request)) {
                    long result = SocketNative.recvIov(channel.fd, iovecs.address(), iovecs.count(),
                            IoUringNative.MSG_DONTWAIT);
                    if (!Errors.isAgain(result)) {
                        completeRead(context, dir, request, (int) result);
                        return null;
                    }
                }
            }
            return dir.sqe.describe(IoUringNative.OP_READV, 0, channel.fd, iovecs.address(), iovecs.count(),
                    offset, 0);
        }
        if (file) {
            IoUringOps.refuseHeapBuffer(channel);
        }
        int want = BounceCopies.space(request, NativeScratch.BOUNCE_SIZE);
        if (want == 0) {
            request.complete(0);
            return null;
        }
        if (!file) {
            return submitHeapRead(context, dir, request, want, mayArm ? tryRead(context, dir, request) : true,
                    mayArm);
        }
        dir.mode = IoUringOps.MODE_BOUNCE;
        return dir.sqe.describe(IoUringNative.OP_READ, 0, channel.fd, dir.scratch.bounce().address(), want,
                offset, 0);
    }

    /**
     * A stream read into heap buffers: received at once through a shared block if {@code receiveNow}
     * ({@link IoUringOps#MODE_READY}); else, or if nothing was there, a {@code RECV} that takes a block of the
     * engine's provided-buffer ring when bytes arrive ({@link IoUringOps#MODE_PROVIDED}; several blocks as a receive
     * bundle, {@link IoUringBundles}), or, without that ring, a poll for input whose completion receives the bytes
     * ({@link #readyToRead}). A RECV into memory of the connection's own would hold it for as long as it waits, and a
     * server's idle connections all wait with a read pending.
     *
     * @return the SQE to write, or null if the read finished at once (result recorded)
     */
    private static IoUringSqe submitHeapRead(IoUringOpsContext context, IoUringDirection dir, IoRequest request,
                                             int want, boolean receiveNow, boolean mayArm) throws IOException {
        dir.mode = IoUringOps.MODE_READY;
        dir.asked = want;
        if (receiveNow) {
            int result = BounceBlocks.receive(dir.channel.fd, request, want, IoUringNative.MSG_DONTWAIT);
            if (!Errors.isAgain(result)) {
                completeRead(context, dir, request, result);
                return null;
            }
        }
        IoUringBufferRing provided = context.providedBuffers();
        if (provided == null) {
            return IoUringOps.pollFor(dir, IoUringNative.POLLIN);
        }
        if (mayArm && context.multishotRecv() != IoUringFeatures.MultishotRecv.OFF && context.mayArmMultishot()) {
            return armMultishot(dir);
        }
        dir.mode = IoUringOps.MODE_PROVIDED;
        int block = provided.blockSize();
        // Only after a read that brought a block or more (bulk data); a bundle asks for whole blocks, so that every
        // block it fills is whole but its last.
        boolean bundle = dir.bulk && context.recvBundle() && want >= 2 * block;
        dir.asked = bundle ? want / block * block : Math.min(want, block);
        int ioprio = (receiveNow || drained(dir) ? context.pollFirstPriority() : 0)
                | (bundle ? IoUringNative.RECVSEND_BUNDLE : 0);
        return dir.sqe.providedRecv(dir.channel.fd, ioprio, (int) dir.asked);
    }

    /**
     * At the CQE of a stream or file read: finishes the read, or describes its next SQE (a heap read's poll found
     * the socket ready, or its provided-buffer receive found no block left: its bytes are received now).
     *
     * @return the next SQE to write, or null if the read finished (result recorded)
     */
    static IoUringSqe complete(IoUringOpsContext context, IoUringDirection dir, IoRequest request, int result)
            throws IOException {
        if (dir.mode == IoUringOps.MODE_MULTISHOT) {
            return multishotArrived(context, dir, request, result);
        }
        if (dir.mode == IoUringOps.MODE_READY) {
            return readyToRead(context, dir, request, result);
        }
        if (dir.mode == IoUringOps.MODE_PROVIDED && result == -IoUringNative.ENOBUFS) {
            context.providedBuffers().noteShortage();
            return readyToRead(context, dir, request, 0);
        }
        completeRead(context, dir, request, result);
        return null;
    }

    /**
     * At the completion of a {@link IoUringOps#MODE_READY} read's poll, or of a provided-buffer receive that found no
     * block: receives through a shared block, or goes to the ring again if the socket had nothing after all.
     *
     * @return the next SQE to write (a poll, or a provided-buffer receive), or null if the read finished (result
     *         recorded)
     */
    static IoUringSqe readyToRead(IoUringOpsContext context, IoUringDirection dir, IoRequest request, int pollResult)
            throws IOException {
        IoUringOps.checkReady(dir, pollResult);
        return submitHeapRead(context, dir, request, (int) dir.asked, true, false);
    }

    // ---------------------------------------------------------------- multishot receive (IoUringMultishotRecv)

    /**
     * A stream read of a direction whose multishot receive is armed or holds something: takes what is held (and
     * finishes at once), or waits for the receive's next CQE with no SQE of its own. Never tries the socket: bytes
     * it took could be younger than those of a CQE not reaped yet.
     *
     * @return null if the read finished (result recorded), else {@link IoUringSqe#WAITS_FOR_MULTISHOT}
     */
    private static IoUringSqe fromMultishot(IoUringOpsContext context, IoUringDirection dir, IoRequest request)
            throws IOException {
        if (BounceCopies.space(request, 1) == 0) {
            request.complete(0); // no room: what is held, an end of stream included, stays for the next read
            return null;
        }
        dir.mode = IoUringOps.MODE_MULTISHOT;
        if (dir.multishot.hasHeld()) {
            completeFromHeld(context, dir, request);
            return null;
        }
        return IoUringSqe.WAITS_FOR_MULTISHOT;
    }

    /** Arms the direction's multishot receive for the read: the read waits for its first CQE. */
    private static IoUringSqe armMultishot(IoUringDirection dir) {
        dir.mode = IoUringOps.MODE_MULTISHOT;
        dir.multishot();
        return dir.sqe.multishotRecv(dir.channel.fd);
    }

    /**
     * At a CQE of the multishot receive a read waits for (the reaper queued what it brought first): finishes the
     * read with what is held; or, with nothing held, the receive ended without bringing anything: it found the ring
     * empty ({@code -ENOBUFS}; the read then receives on its own, as without the receive: the bytes are in the
     * socket), or it was cancelled (at the held limit, before this read came): it is armed again.
     *
     * @return the next SQE to write, {@link IoUringSqe#WAITS_FOR_MULTISHOT} if the receive is still armed, or null
     *         if the read finished (result recorded)
     */
    private static IoUringSqe multishotArrived(IoUringOpsContext context, IoUringDirection dir, IoRequest request,
                                               int result) throws IOException {
        IoUringMultishotRecv multishot = dir.multishot;
        if (multishot.hasHeld()) {
            completeFromHeld(context, dir, request);
            return null;
        }
        if (multishot.armed()) {
            return IoUringSqe.WAITS_FOR_MULTISHOT;
        }
        if (result == -IoUringNative.ENOBUFS || !context.mayArmMultishot()) {
            return submitRead(context, dir, request, false, false);
        }
        return armMultishot(dir);
    }

    /**
     * An awaited read took its channel's multishot CQEs out of the ring ({@link IoUringAwaitedMultishot}): it
     * finishes with what they brought, or, if the receive ended with nothing held, reads on its own (tried at once).
     *
     * @return the SQE to write, or null if the read finished (result recorded)
     */
    static IoUringSqe afterTakingCqes(IoUringOpsContext context, IoUringDirection dir, IoRequest request)
            throws IOException {
        if (dir.multishot.hasHeld()) {
            completeFromHeld(context, dir, request);
            return null;
        }
        return submitRead(context, dir, request, false, false);
    }

    /** Finishes the read with what the direction's multishot receive holds (it holds something). */
    private static void completeFromHeld(IoUringOpsContext context, IoUringDirection dir, IoRequest request)
            throws IOException {
        IoUringMultishotRecv held = dir.multishot;
        int result = held.take(request, context.providedBuffers());
        if (result == IoUringMultishotRecv.END_OF_STREAM) {
            request.complete(-1);
            return;
        }
        if (result < 0) {
            throw Errors.newException("recv", result);
        }
        int total = result;
        while (result > 0 && held.holdsBytesFirst() && BounceCopies.space(request, 1) > 0) {
            result = held.take(request, context.providedBuffers()); // the next blocks' bytes, while there is room
            total += result;
        }
        request.complete(total);
    }

    /**
     * Whether a stream read is tried on the socket at start, whatever its buffers: with {@code tryFirst}, unless the
     * last read drained the socket with no leader turn since (see {@link IoUringDirection#drainedAtTurn}); always when a
     * thread blocks for it ({@link IoRequest#awaited()}: no thread may be left to reap it).
     */
    private static boolean tryRead(IoUringOpsContext context, IoUringDirection dir, IoRequest request) {
        return request.bytes() == 0 && (request.awaited()
                || dir.drainedAtTurn != context.tryFirst().turns() && context.tryFirst().tryAtStart());
    }

    /** Whether the direction's last stream read drained its socket, whatever turn since (see {@link #tryRead}). */
    private static boolean drained(IoUringDirection dir) {
        return dir.drainedAtTurn >= 0;
    }

    /**
     * Records the read's result: bytes read (the buffers' positions moved over them), or -1 at the end of the
     * stream or file. Notes a stream read that drained its socket (see {@link #tryRead}). A read always finishes
     * with its first result.
     */
    static void completeRead(IoUringOpsContext context, IoUringDirection dir, IoRequest request, int result)
            throws IOException {
        if (request.kind() == OpKind.READ) {
            boolean drained = result > 0 && result < dir.asked;
            dir.drainedAtTurn = drained ? context.tryFirst().turns() : -1;
            dir.bulk = result >= IoUringFeatures.BLOCK_SIZE;
        }
        if (result < 0) {
            throw Errors.newException(request.kind() == OpKind.READ_FILE ? "read" : "recv", result);
        }
        if (result == 0) {
            request.complete(-1);
            return;
        }
        switch (dir.mode) {
            case IoUringOps.MODE_SINGLE:
                ByteBuffer buffer = request.firstBuffer();
                buffer.position(dir.startPosition + result);
                break;
            case IoUringOps.MODE_VECTOR:
                dir.scratch.currentIovecs().advance(result);
                break;
            case IoUringOps.MODE_BOUNCE:
                BounceCopies.drain(dir.scratch.bounce(), result, request);
                break;
            case IoUringOps.MODE_PROVIDED:
                if (dir.selectedBlock < 0) {
                    throw new IllegalStateException("a provided-buffer receive of " + result
                            + " bytes without a block");
                }
                result = IoUringBundles.copyOut(context.providedBuffers(), dir, request, result);
                break;
            default:
                break; // MODE_READY: copied out of the shared block already
        }
        request.complete(result);
    }
}
