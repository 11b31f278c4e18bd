package dev.proactor.jni.aio;

import dev.proactor.jni.Errors;
import dev.proactor.jni.engine.DirectIoAlignment;
import dev.proactor.jni.internal.DirectBuffers;
import dev.proactor.jni.internal.ErrnoNative;
import dev.proactor.jni.internal.IovecArray;
import dev.proactor.jni.internal.LinuxAioNative;
import dev.proactor.jni.internal.NativeMemory;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.OpKind;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Turns a file request into its slot's iocb, and an event's result back into the request: the request side of an
 * {@link AioContext}, which owns the iocb table, the slots, submission and the harvest.
 *
 * <p>Requests: {@code READ_FILE} is one {@code IOCB_CMD_PREAD} (several buffers: {@code PREADV}); a short read is
 * the result, 0 bytes is end of file. {@code WRITE_FILE} is {@code PWRITE}/{@code PWRITEV}, submitted again from
 * where it stopped after a short write until every byte is written. Direct buffers go to the kernel as they are
 * (nothing allocated per request); a heap buffer goes through the slot's direct bounce block, at most
 * {@link AioSlot#MAX_BOUNCE} bytes per iocb (a short read; a write goes on until every byte is written). Every iocb
 * names the context's eventfd ({@code IOCB_FLAG_RESFD}).
 *
 * <p>Threading: no lock of its own and no state but the context's iocb table and eventfd. The caller owns the slot
 * (taken from the context's free list and not yet given back): {@link #prepare} runs inside the file channel's
 * submission ({@link AioFileChannel#beginSubmit()}) with no lock held (on the starting thread, or on the leader for
 * a short write's rest); {@link #apply} runs on the leader while it reaps.
 */
final class AioFileOps {

    /** The context's iocb table: {@link AioContext#DEPTH} iocbs, slot {@code i}'s at {@code i * IOCB_SIZE}. */
    private final NativeMemory iocbs;
    /** The context's eventfd, which every iocb names. */
    private final int eventfd;

    AioFileOps(NativeMemory iocbs, int eventfd) {
        this.iocbs = iocbs;
        this.eventfd = eventfd;
    }

    // ---------------------------------------------------------------- request to iocb

    /**
     * Fills the slot's iocb from the request's buffers (their current positions) at file position
     * {@code position() + bytes()}, so a write continues where it stopped. Checks every buffer, and the
     * {@code O_DIRECT} alignment, before the kernel sees anything.
     *
     * @throws IllegalArgumentException for a buffer the request cannot use (also a misaligned one on O_DIRECT)
     * @throws IllegalStateException    for a buffer changed or freed meanwhile ({@link DirectBuffers#checkRange})
     * @throws OutOfMemoryError         if direct memory cannot hold a heap buffer's bounce block
     */
    void prepare(AioSlot slot, IoRequest request, AioFileChannel channel, boolean read) {
        long position = request.position() + request.bytes();
        ByteBuffer[] buffers = request.buffers();
        DirectIoAlignment alignment = channel.alignment;
        int command;
        long address;
        long length;
        if (request.length() == 1) {
            ByteBuffer b = buffers[request.offset()];
            int p = b.position();
            int l = b.limit();
            slot.buffer = b;
            slot.bufferPosition = p;
            if (b.isDirect()) {
                long base = read ? DirectBuffers.writableAddress(b) : DirectBuffers.address(b);
                DirectBuffers.checkRange(b, p, l);
                slot.mode = AioSlot.Mode.DIRECT;
                address = base + p;
            } else {
                if (alignment != null) {
                    throw new IllegalArgumentException(alignment.message("a heap buffer has no stable address;"
                            + " O_DIRECT needs a direct one"));
                }
                if (read && b.isReadOnly()) {
                    throw new IllegalArgumentException("cannot read into a read-only buffer");
                }
                if (p < 0 || p > l || l > b.capacity()) {
                    throw new IllegalStateException("buffer changed by another thread: " + b);
                }
                int chunk = Math.min(l - p, AioSlot.MAX_BOUNCE); // a larger one moves in several iocbs
                ByteBuffer bounce = slot.bounce(chunk);
                if (!read) {
                    bounce.put(0, b, p, chunk);
                }
                slot.mode = AioSlot.Mode.BOUNCE;
                address = DirectBuffers.address(bounce);
                l = p + chunk;
            }
            length = l - p;
            command = read ? LinuxAioNative.IOCB_CMD_PREAD : LinuxAioNative.IOCB_CMD_PWRITE;
            if (alignment != null) {
                String violation = alignment.violation(address, length, position);
                if (violation != null) {
                    throw new IllegalArgumentException(alignment.message(violation));
                }
            }
        } else {
            IovecArray iovec = slot.iovec(request.length());
            for (int i = request.offset(), end = request.offset() + request.length(); i < end; i++) {
                ByteBuffer b = buffers[i];
                if (read) {
                    iovec.addReadTarget(b); // throws IllegalArgumentException for a heap buffer
                } else {
                    iovec.addWriteSource(b);
                }
                if (alignment != null) {
                    String violation = alignment.violation(DirectBuffers.address(b) + b.position(), b.remaining(),
                            position);
                    if (violation != null) {
                        throw new IllegalArgumentException(alignment.message(violation));
                    }
                }
            }
            slot.mode = AioSlot.Mode.VECTOR;
            address = iovec.address();
            length = iovec.count();
            command = read ? LinuxAioNative.IOCB_CMD_PREADV : LinuxAioNative.IOCB_CMD_PWRITEV;
        }
        writeIocb(slot, command, channel.fd, address, length, position);
    }

    private void writeIocb(AioSlot slot, int command, int fd, long address, long length, long position) {
        ByteBuffer m = iocbs.buffer();
        int o = slot.index * LinuxAioNative.IOCB_SIZE;
        for (int i = 0; i < LinuxAioNative.IOCB_SIZE; i += Long.BYTES) {
            m.putLong(o + i, 0L);
        }
        m.putLong(o + LinuxAioNative.IOCB_DATA_OFFSET, slot.index);
        m.putShort(o + LinuxAioNative.IOCB_OPCODE_OFFSET, (short) command);
        m.putInt(o + LinuxAioNative.IOCB_FILDES_OFFSET, fd);
        m.putLong(o + LinuxAioNative.IOCB_BUF_OFFSET, address);
        m.putLong(o + LinuxAioNative.IOCB_NBYTES_OFFSET, length);
        m.putLong(o + LinuxAioNative.IOCB_OFFSET_OFFSET, position);
        m.putInt(o + LinuxAioNative.IOCB_FLAGS_OFFSET, LinuxAioNative.IOCB_FLAG_RESFD);
        m.putInt(o + LinuxAioNative.IOCB_RESFD_OFFSET, eventfd);
    }

    // ---------------------------------------------------------------- event to result

    /**
     * Applies one event's result (bytes, or {@code -errno}) to the slot's request: moves its buffers'
     * positions over the bytes transferred (a read's are copied out of the bounce block first) and records its
     * result. An error fails it, with the cancel reason if it is {@code ECANCELED} after a cancel the kernel
     * accepted; a read completes (0 bytes: end of file); a write adds its bytes and, if it made no progress with
     * bytes left, fails.
     *
     * @return true if the request is a write that made progress and has bytes left: nothing is recorded yet, and
     *         the caller submits the rest ({@link #prepare} again, on the same slot) or fails it
     * @throws RuntimeException for a buffer changed while the request was in flight (the caller fails that request
     *                          only)
     */
    boolean apply(AioSlot slot, IoRequest request, long result) {
        boolean read = request.kind() == OpKind.READ_FILE;
        if (result < 0) {
            Throwable reason = slot.cancelReason;
            request.fail(result == -ErrnoNative.ECANCELED && reason != null ? reason
                    : Errors.newException(read ? "io_submit(pread)" : "io_submit(pwrite)", result));
        } else if (read) {
            advance(slot, (int) result, true);
            request.complete(result == 0 ? -1 : result);
        } else {
            advance(slot, (int) result, false);
            request.addBytes(result);
            if (result > 0 && request.hasRemaining()) {
                return true; // a short write goes on from where it stopped
            }
            if (result == 0 && request.hasRemaining()) {
                request.fail(new IOException("the file write made no progress"));
            }
        }
        return false;
    }

    /** Moves the buffers' positions over {@code bytes} transferred ones; copies a read out of the bounce block. */
    private static void advance(AioSlot slot, int bytes, boolean read) {
        if (bytes <= 0) {
            return;
        }
        switch (slot.mode) {
            case DIRECT -> slot.buffer.position(slot.bufferPosition + bytes);
            case BOUNCE -> {
                if (read) {
                    slot.buffer.put(slot.bufferPosition, slot.activeBounce, 0, bytes);
                }
                slot.buffer.position(slot.bufferPosition + bytes);
            }
            case VECTOR -> slot.filledIovec().advance(bytes);
        }
    }
}
