package dev.proactor.jni.uring;

import dev.proactor.jni.Errors;
import dev.proactor.jni.engine.BounceCopies;
import dev.proactor.jni.engine.DirectIoAlignment;
import dev.proactor.jni.engine.SocketAddresses;
import dev.proactor.jni.internal.DirectBuffers;
import dev.proactor.jni.internal.IoUringNative;
import dev.proactor.jni.internal.IovecArray;
import dev.proactor.jni.internal.Sockaddr;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.OpKind;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.NonReadableChannelException;
import java.nio.channels.NonWritableChannelException;
import java.util.Locale;

/**
 * Turns requests into SQEs and CQE results back into request results, one step at a time: checks that a request
 * suits its channel and hands it to the class of its kind (connect, two lines each way, is here). A step describes
 * one SQE in the direction's {@link IoUringSqe} and returns it, or returns null when the request finished without
 * one (a try at start did it, or there was nothing to do); its completion either finishes the request or describes
 * the next SQE (a partial write, an accept whose connection was aborted, the next piece of a transmission). The
 * caller, the engine's starter, alone writes SQEs, with the direction's slot as user data; nothing here calls it
 * back. Stateless; the caller holds the channel's monitor (a starting thread, or the leader handling a
 * completion). A request that does not suit its channel or buffers throws an unchecked exception, a failed step
 * an {@link IOException}; the caller records either as the result.
 *
 * <p>Mapping: stream read {@code RECV} (with {@code IORING_RECVSEND_POLL_FIRST} when enabled and a try at start has
 * just found the socket empty, so the kernel does not try again at once; see {@link IoUringReadOps}), scattering read
 * {@code READV}, stream write {@code SEND} with {@code MSG_NOSIGNAL}, gathering write {@code WRITEV}, accept
 * {@code ACCEPT}, connect {@code CONNECT}, datagrams {@code RECVMSG}/{@code SENDMSG} (after a try at start:
 * {@link IoUringDatagramOps}), files {@code READ}/{@code WRITE} (and the vectored forms) at the position. Stream
 * transfers of heap buffers that cannot be done at start wait for readiness ({@link #MODE_READY}), or, for a read
 * where the engine has a provided-buffer ring, for a block of it ({@link #MODE_PROVIDED}): a connection idling with a
 * heap read pending holds no native memory; file and datagram transfers of heap buffers go through the
 * direction's 64 KiB block. Direct single-buffer paths allocate nothing. Files with {@code O_DIRECT} take direct
 * buffers only, each transfer checked against the file's alignment before its SQE is written
 * ({@link #checkDirect(IoUringChannel, long, long, long)}). Stream and file reads are in {@link IoUringReadOps}, writes
 * in {@link IoUringWriteOps}, accept in {@link IoUringAcceptOps}, datagrams in {@link IoUringDatagramOps}, file
 * transmission in {@link IoUringTransmit}, the bounce block's copies in {@link BounceCopies} (shared with the epoll
 * engine).
 */
final class IoUringOps {

    static final int MODE_SINGLE = 1;
    static final int MODE_VECTOR = 2;
    static final int MODE_BOUNCE = 3;
    /**
     * A stream read or write of heap buffers: its SQE is a one-shot poll ({@link #pollFor}); when the socket is
     * ready the leader moves the bytes with one non-blocking system call through a shared block
     * ({@link dev.proactor.jni.engine.BounceBlocks}), so no native memory is held while it waits.
     */
    static final int MODE_READY = 4;
    /**
     * A stream read of heap buffers as a {@code RECV} from which the kernel takes a block of the engine's
     * provided-buffer ring when bytes arrive ({@link IoUringBufferRing}); the completion copies them out. Nothing
     * native is held while it waits, and no system call of ours is made.
     */
    static final int MODE_PROVIDED = 5;
    /**
     * A request served by its direction's multishot request ({@link IoUringMultishot}): a stream read by its
     * channel's multishot receive ({@link IoUringMultishotRecv}; the bytes are copied out of the block), an accept by
     * its listener's multishot accept ({@link IoUringMultishotAccept}). It arms the multishot (whose SQE carries the
     * multishot's own slot), or waits for its next CQE with no SQE, and no slot, of its own.
     */
    static final int MODE_MULTISHOT = 6;
    /**
     * A stream read or accept whose start lets go of the channel's monitor for a moment while it collects its
     * multishot request's CQEs (see {@link IoUringAwaitedMultishot}): meanwhile it is not waiting for that request,
     * whose CQEs are held.
     */
    static final int MODE_AWAITED_START = 7;

    /** The kinds this engine runs. */
    static final int SUPPORTED = OpKind.STREAM_MASK | OpKind.DATAGRAM_MASK | OpKind.FILE_MASK
            | OpKind.TRANSMIT_FILE.bit();

    private IoUringOps() {
    }

    /**
     * Describes the SQE of the request's first step.
     *
     * @return the SQE to write (the direction's), or null if the request finished without one (result recorded)
     * @throws IOException on an error the caller records as the result
     */
    static IoUringSqe start(IoUringOpsContext context, IoUringDirection dir, IoRequest request) throws IOException {
        IoUringChannel channel = dir.channel;
        switch (request.kind()) {
            case READ:
                require(channel, IoUringChannel.Kind.STREAM, "read");
                DirectBuffers.checkWritable(request);
                return IoUringReadOps.submitRead(context, dir, request, false);
            case READ_FILE:
                require(channel, IoUringChannel.Kind.FILE, "a file read");
                if (!channel.readable) {
                    throw new NonReadableChannelException();
                }
                DirectBuffers.checkWritable(request);
                return IoUringReadOps.submitRead(context, dir, request, true);
            case WRITE:
                require(channel, IoUringChannel.Kind.STREAM, "write");
                return IoUringWriteOps.submitWrite(context, dir, request, false);
            case WRITE_FILE:
                require(channel, IoUringChannel.Kind.FILE, "a file write");
                if (!channel.writable) {
                    throw new NonWritableChannelException();
                }
                return IoUringWriteOps.submitWrite(context, dir, request, true);
            case ACCEPT:
                require(channel, IoUringChannel.Kind.SERVER, "accept");
                return IoUringAcceptOps.start(context, dir, request);
            case CONNECT:
                require(channel, IoUringChannel.Kind.STREAM, "connect");
                Sockaddr target = dir.scratch.sockaddr().setFor(channel.family,
                        SocketAddresses.inet(request.address()));
                return dir.sqe.describe(IoUringNative.OP_CONNECT, 0, channel.fd, target.address(), 0,
                        target.length(), 0);
            case RECEIVE:
                require(channel, IoUringChannel.Kind.DATAGRAM, "receive");
                return IoUringDatagramOps.submitReceive(context, dir, request);
            case SEND:
                require(channel, IoUringChannel.Kind.DATAGRAM, "send");
                return IoUringDatagramOps.submitSend(context, dir, request);
            case TRANSMIT_FILE:
                require(channel, IoUringChannel.Kind.STREAM, "transmitFile");
                return IoUringTransmit.start(dir, request);
            default:
                throw new IllegalArgumentException("the io_uring engine does not run " + request.kind());
        }
    }

    /**
     * Records the result of the request's SQE, and describes the next one if the request goes on.
     *
     * @return the next SQE to write (the direction's), or null if the request finished (result recorded)
     * @throws IOException on an error the caller records as the result
     */
    static IoUringSqe complete(IoUringOpsContext context, IoUringDirection dir, IoRequest request, int result)
            throws IOException {
        switch (request.kind()) {
            case READ:
            case READ_FILE:
                return IoUringReadOps.complete(context, dir, request, result);
            case WRITE:
            case WRITE_FILE:
                return dir.mode == MODE_READY ? IoUringWriteOps.readyToWrite(context, dir, request, result)
                        : IoUringWriteOps.completeWrite(context, dir, request, result);
            case ACCEPT:
                return IoUringAcceptOps.complete(context, dir, request, result);
            case CONNECT:
                if (result < 0) {
                    throw Errors.newException("connect", result);
                }
                request.peer(request.address());
                return null;
            case RECEIVE:
                IoUringDatagramOps.completeReceive(dir, request, result);
                return null;
            case SEND:
                IoUringDatagramOps.completeSend(dir, request, result);
                return null;
            case TRANSMIT_FILE:
                return IoUringTransmit.complete(dir, request, result);
            default:
                throw new IllegalStateException("unexpected completion of " + request.kind());
        }
    }

    /**
     * The step's SQE could not be written (the engine is closed, or the write threw): releases what the step holds
     * beyond the direction's own memory (a transmission's duplicate descriptor), before the caller records the
     * error as the result.
     */
    static void abandon(IoUringDirection dir, IoRequest request) {
        if (request.kind() == OpKind.TRANSMIT_FILE) {
            IoUringTransmit.release(dir.transmit);
        }
    }

    /**
     * Describes a one-shot {@code POLL_ADD} for {@code events} ({@link IoUringNative#POLLIN} or
     * {@link IoUringNative#POLLOUT}) on the direction's socket, for a {@link #MODE_READY} transfer.
     *
     * @return the SQE to write
     */
    static IoUringSqe pollFor(IoUringDirection dir, int events) {
        return dir.sqe.poll(dir.channel.fd, events);
    }

    /**
     * At the completion of a {@link #MODE_READY} poll: throws if it failed, or if the channel was closed or the
     * request cancelled meanwhile (the socket is then not touched: its descriptor may be on its way to be closed).
     */
    static void checkReady(IoUringDirection dir, int pollResult) throws IOException {
        if (pollResult < 0) {
            throw Errors.newException("poll", pollResult);
        }
        if (!dir.channel.usable() || dir.cancelReason != null) {
            throw new AsynchronousCloseException(); // replaced by the cancel reason when there is one
        }
    }

    // ---------------------------------------------------------------- checks

    private static void require(IoUringChannel channel, IoUringChannel.Kind kind, String operation) {
        if (channel.kind != kind) {
            throw new IllegalArgumentException(operation + " needs a " + kind.name().toLowerCase(Locale.ROOT)
                    + " channel, not " + channel);
        }
    }

    /**
     * Fills the direction's iovecs with the request's buffers, all direct, as many as fit: as read targets if
     * {@code read}, else as write sources; on a {@code file}, each checked first against its {@code O_DIRECT}
     * alignment at file {@code offset}.
     */
    static IovecArray iovecs(IoUringDirection dir, IoRequest request, boolean read, boolean file, long offset) {
        IovecArray iovecs = dir.scratch.iovecs(request.length());
        ByteBuffer[] buffers = request.buffers();
        for (int i = request.offset(), end = i + request.length(); i < end && !iovecs.isFull(); i++) {
            if (file) {
                checkDirect(dir.channel, buffers[i], offset);
            }
            if (read) {
                iovecs.addReadTarget(buffers[i]);
            } else {
                iovecs.addWriteSource(buffers[i]);
            }
        }
        return iovecs;
    }

    /**
     * On an {@code O_DIRECT} file: throws {@link IllegalArgumentException} naming the alignment when a transfer of
     * {@code length} bytes at native {@code address} and file {@code offset} breaks it, before the kernel sees it
     * (where it would fail with a bare {@code EINVAL}).
     */
    static void checkDirect(IoUringChannel channel, long address, long length, long offset) {
        DirectIoAlignment alignment = channel.alignment;
        if (alignment != null) {
            String violation = alignment.violation(address, length, offset);
            if (violation != null) {
                throw new IllegalArgumentException(alignment.message(violation));
            }
        }
    }

    /** As {@link #checkDirect(IoUringChannel, long, long, long)} for one buffer of a vectored transfer. */
    static void checkDirect(IoUringChannel channel, ByteBuffer buffer, long offset) {
        if (channel.alignment != null && buffer.hasRemaining()) {
            checkDirect(channel, DirectBuffers.address(buffer) + buffer.position(), buffer.remaining(), offset);
        }
    }

    /** On an {@code O_DIRECT} file a heap buffer cannot be used: the bounce block is not aligned for it. */
    static void refuseHeapBuffer(IoUringChannel channel) {
        DirectIoAlignment alignment = channel.alignment;
        if (alignment != null) {
            throw new IllegalArgumentException(alignment.message("a heap buffer has no stable address;"
                    + " O_DIRECT needs a direct one"));
        }
    }
}
