package dev.proactor.jni.internal;

import dev.proactor.jni.NativeLibrary;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Natives of {@code file.c}: {@code sendfile}, {@code pread}, descriptor duplication, and the descriptor of
 * a JDK {@link FileChannel}, for file transmission over sockets; the kind of a file ({@link #kindOf}), for the file
 * engines that must not wait for another party on the caller's thread.
 *
 * <p>All calls return {@code >= 0} or {@code -errno}. The natives are private, except
 * {@link #pread(int, long, int, long)}, which takes an unchecked address (see the package documentation); the
 * public forms check descriptors, offsets, counts and buffers in Java before the call.
 */
public final class FileNative {

    static {
        NativeLibrary.ensureAvailability();
    }

    /** {@link #kindOf}: a regular file or a block device; its reads and writes wait for the disk only. */
    public static final int KIND_DISK = 0;
    /** {@link #kindOf}: another file with a position (a character device such as {@code /dev/zero}). */
    public static final int KIND_POSITIONED = 1;
    /** {@link #kindOf}: a file without a position (a pipe, a FIFO, a socket, a terminal). */
    public static final int KIND_STREAM = 2;

    private FileNative() {
    }

    private static native int kind(int fd);

    /**
     * What kind of file {@code fd} is ({@code fstat(2)}, and {@code lseek(2)} for whether it has a position).
     *
     * @return {@link #KIND_DISK}, {@link #KIND_POSITIONED}, {@link #KIND_STREAM}, or {@code -errno}
     * @throws IllegalArgumentException if {@code fd} is negative
     */
    public static int kindOf(int fd) {
        if (fd < 0) {
            throw new IllegalArgumentException("bad descriptor: " + fd);
        }
        return kind(fd);
    }

    private static native long sendfile(int outFd, int inFd, long offset, long count);

    /** {@code pread(2)} of up to {@code length} bytes at file offset {@code offset} to {@code address}; unchecked. */
    public static native int pread(int fd, long address, int length, long offset);

    private static native int dupCloexec(int fd);

    private static native int channelFd(Object channel);

    /**
     * Sends up to {@code count} bytes of file {@code inFd} from {@code offset} to the socket {@code outFd} with
     * {@code sendfile(2)}; the file's own offset is neither used nor changed. On a non-blocking socket it sends
     * what fits now; the kernel sends at most {@code 0x7ffff000} bytes per call.
     *
     * @return bytes sent; 0 when {@code offset} is at or after the end of the file; {@code -EAGAIN} when the
     *     non-blocking socket is full; {@code -EINVAL} or {@code -ENOSYS} when this file cannot be sent this way
     *     (copy it instead); another {@code -errno} on an error of the socket or the file
     * @throws IllegalArgumentException if a descriptor or {@code offset} is negative, {@code count} is not
     *     positive, or {@code offset + count} overflows
     */
    public static long transferTo(int outFd, int inFd, long offset, long count) {
        if (outFd < 0 || inFd < 0) {
            throw new IllegalArgumentException("bad descriptor: out " + outFd + ", in " + inFd);
        }
        if (offset < 0 || count <= 0 || count > Long.MAX_VALUE - offset) {
            throw new IllegalArgumentException("need offset >= 0, count > 0 and no overflow: " + offset + ", "
                    + count);
        }
        return sendfile(outFd, inFd, offset, count);
    }

    /**
     * A new close-on-exec descriptor for the open file of {@code fd} ({@code fcntl(F_DUPFD_CLOEXEC)}), a file or a
     * socket; the caller owns it and must close it.
     *
     * @return the new descriptor or {@code -errno}
     * @throws IllegalArgumentException if {@code fd} is negative
     */
    public static int duplicate(int fd) {
        if (fd < 0) {
            throw new IllegalArgumentException("bad descriptor: " + fd);
        }
        return dupCloexec(fd);
    }

    /**
     * The descriptor of a JDK {@link FileChannel} ({@code FileChannel.open}, {@code FileInputStream.getChannel}
     * ...), read through JNI from its private {@code FileDescriptor}. The channel still owns it: use it only
     * while the channel is open, and prefer a {@link #duplicate(int) duplicate} for anything that may outlive a
     * check of {@link FileChannel#isOpen()}.
     *
     * <p>Only channels whose class belongs to {@code java.base} are read: any other {@code FileChannel} (a
     * wrapper, a subclass) may give its methods a meaning the raw descriptor would bypass.
     *
     * @return the descriptor; {@code -EOPNOTSUPP} for a channel that is not the JDK's own implementation;
     *     {@code -EBADF} for a closed one
     * @throws IllegalArgumentException if {@code channel} is null
     */
    public static int fdOf(FileChannel channel) {
        if (channel == null) {
            throw new IllegalArgumentException("channel is null");
        }
        if (channel.getClass().getModule() != Object.class.getModule()) {
            return -ErrnoNative.EOPNOTSUPP;
        }
        if (!channel.isOpen()) {
            return -ErrnoNative.EBADF;
        }
        return channelFd(channel);
    }

    /**
     * As {@link #pread(int, long, int, long)}, into {@code destination}'s remaining space, advancing its position.
     *
     * @return bytes read, 0 at the end of the file, or {@code -errno}
     * @throws IllegalArgumentException if the buffer is not a writable direct buffer or {@code offset} is negative
     * @throws IllegalStateException as {@link DirectBuffers#checkRange}
     */
    public static int pread(int fd, ByteBuffer destination, long offset) {
        if (offset < 0) {
            throw new IllegalArgumentException("negative file offset: " + offset);
        }
        long base = DirectBuffers.writableAddress(destination);
        int position = destination.position();
        int limit = destination.limit();
        DirectBuffers.checkRange(destination, position, limit);
        long address = base + position;
        int result = pread(fd, address, limit - position, offset);
        Reference.reachabilityFence(destination);
        if (result > 0) {
            destination.position(position + result);
        }
        return result;
    }
}
