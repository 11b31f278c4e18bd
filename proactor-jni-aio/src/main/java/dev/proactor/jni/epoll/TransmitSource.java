package dev.proactor.jni.epoll;

import dev.proactor.jni.Errors;
import dev.proactor.jni.internal.ErrnoNative;
import dev.proactor.jni.internal.FileNative;
import dev.proactor.jni.internal.IoNative;
import dev.proactor.jni.internal.NativeMemory;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The file side of the one transmission a stream channel runs at a time: a descriptor of the file that the
 * engine owns, and the window of file bytes copied into the channel's output block but not yet sent.
 *
 * <p>Why a duplicate: the user's {@link FileChannel} owns its descriptor, and if it were closed while the
 * transmission is pending (a misuse) the kernel could hand the number to another file, whose bytes
 * {@code sendfile} would then send. The duplicate is made while the channel is open (checked after the
 * {@code dup}, as closing is one-way) and names the right file for as long as the engine keeps it; it is closed
 * when the transmission completes, fails or is cancelled, or the channel closes.
 *
 * <p>Used under the channel's lock only.
 */
final class TransmitSource {

    private static final Logger LOG = LoggerFactory.getLogger(TransmitSource.class);

    /** The engine's duplicate of the file's descriptor, or -1. */
    private int fd = -1;
    /** File bytes read into the copy block and not yet sent: {@code [start, end)}. */
    private int start;
    private int end;
    /** A view of the copy block for {@link FileChannel#read(ByteBuffer, long)}, made once. */
    private ByteBuffer readView;
    private NativeMemory readViewOf;

    /**
     * Starts a transmission from {@code file}: forgets any earlier state and duplicates the file's descriptor
     * when the file is the JDK's own channel.
     *
     * @return whether a descriptor is now held ({@code sendfile} and {@code pread} can be used); {@code false}
     *     when the file must be read through its {@link FileChannel} methods
     * @throws ClosedChannelException if the file is closed
     */
    boolean open(FileChannel file) throws ClosedChannelException {
        release();
        start = 0;
        end = 0;
        int original = FileNative.fdOf(file);
        if (original == -ErrnoNative.EBADF) {
            throw new ClosedChannelException();
        }
        if (original < 0) {
            return false; // not the JDK's channel: its own read method is the only right way in
        }
        int duplicate = FileNative.duplicate(original);
        if (duplicate < 0) {
            return false; // e.g. out of descriptors: copying through the channel needs none
        }
        fd = duplicate;
        if (!file.isOpen()) {
            // Closed during the dup: the number may already have named another file.
            release();
            throw new ClosedChannelException();
        }
        return true;
    }

    /** The engine's descriptor of the file; only after {@link #open} returned {@code true}. */
    int fd() {
        return fd;
    }

    /** Whether every byte copied into the block has been sent. */
    boolean windowEmpty() {
        return start == end;
    }

    /** Offset in the copy block of the first unsent byte. */
    int windowStart() {
        return start;
    }

    /** Unsent bytes in the copy block. */
    int windowLength() {
        return end - start;
    }

    /** Records that the copy block now holds {@code length} unsent file bytes from its start. */
    void filled(int length) {
        start = 0;
        end = length;
    }

    /** Records that {@code n} bytes of the window were sent. */
    void sent(int n) {
        start += n;
    }

    /** A buffer over {@code block} for a channel read into it; position and limit are the caller's to set. */
    ByteBuffer readView(NativeMemory block) {
        if (readViewOf != block) {
            readView = block.buffer().duplicate();
            readViewOf = block;
        }
        return readView;
    }

    /** Closes the duplicate descriptor, if one is held; idempotent. A failure is logged (nothing was lost). */
    void release() {
        if (fd < 0) {
            return;
        }
        int result = IoNative.close(fd);
        fd = -1;
        if (result < 0) {
            IOException failure = Errors.newException("close(transmitted file)", result);
            LOG.warn("closing the engine's descriptor of a transmitted file failed: {}", failure.getMessage());
        }
    }
}
