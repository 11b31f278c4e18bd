package dev.proactor.jni.engine;

import dev.proactor.jni.internal.NativeMemory;
import dev.proactor.jni.internal.SocketNative;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.Spares;

/**
 * The native blocks a heap buffer's bytes go through on their way to and from a socket when the transfer is one
 * system call made by the calling thread (the epoll engine's reads, writes and datagrams; the io_uring engine's
 * stream reads and writes, tried at start or made once the ring reported the socket ready): taken for that call and
 * given back right after it, shared by every channel of the process. A channel so keeps no block of its own (64
 * KiB each way would add up to gigabytes at ten thousand connections), and the few blocks in use stay in the
 * CPU's caches. A transfer whose bytes must stay in native memory after the call returns (a file or datagram
 * request in io_uring's ring, a file transmission's copy window) uses its channel's {@link NativeScratch} instead.
 *
 * <p>Thread-safe ({@link Spares}).
 */
public final class BounceBlocks {

    private static final Spares<NativeMemory> BLOCKS =
            new Spares<>(() -> NativeMemory.allocate(NativeScratch.BOUNCE_SIZE));

    private BounceBlocks() {
    }

    /**
     * A block of {@link NativeScratch#BOUNCE_SIZE} bytes (its contents are what the last user left).
     *
     * @throws OutOfMemoryError if direct memory cannot hold a new one
     */
    public static NativeMemory take() {
        return BLOCKS.take();
    }

    /** Gives a block from {@link #take()} back once the system call that used it returned; the caller drops it. */
    public static void give(NativeMemory block) {
        BLOCKS.give(block);
    }

    /**
     * Receives up to {@code want} bytes (at most a block) with one {@code recvfrom(2)} through a shared block and
     * copies what arrived into the read's buffers, moving their positions over it.
     *
     * @param flags {@code recvfrom}'s flags (e.g. {@code MSG_DONTWAIT})
     * @return bytes received, 0 at the end of the stream, or {@code -errno}
     */
    public static int receive(int fd, IoRequest request, int want, int flags) {
        NativeMemory block = take();
        try {
            int result = SocketNative.recvfrom(fd, block.address(), Math.min(want, NativeScratch.BOUNCE_SIZE), flags,
                    null);
            if (result > 0) {
                BounceCopies.drain(block, result, request);
            }
            return result;
        } finally {
            give(block);
        }
    }

    /**
     * Sends as much of a write's remaining bytes as a block holds with one {@code sendto(2)} through a shared
     * block. The buffers do not move: the caller advances them by what was sent ({@link BounceCopies#advance}).
     *
     * @param flags {@code sendto}'s flags (e.g. {@code MSG_DONTWAIT})
     * @return bytes sent, {@code -errno}, or 0 if nothing was left to copy (the buffers were changed meanwhile)
     */
    public static int send(int fd, IoRequest request, int flags) {
        NativeMemory block = take();
        try {
            int filled = BounceCopies.fill(block, request);
            return filled == 0 ? 0 : SocketNative.sendto(fd, block.address(), filled, flags, null);
        } finally {
            give(block);
        }
    }
}
