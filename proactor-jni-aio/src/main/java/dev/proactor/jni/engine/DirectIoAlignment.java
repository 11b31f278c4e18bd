package dev.proactor.jni.engine;

import dev.proactor.jni.Errors;
import dev.proactor.jni.internal.LinuxAioNative;
import dev.proactor.jni.internal.NativeMemory;
import java.io.IOException;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The alignment direct I/O ({@code O_DIRECT}) needs on one open file, and the check of a buffer and position
 * against it, made in Java before anything reaches the kernel (where a misaligned request fails with a bare
 * {@code EINVAL}).
 *
 * <p>Where it comes from: {@code statx(STATX_DIOALIGN)} (Linux 6.1+) gives the memory and the file-offset
 * alignment of this very file. On older kernels, or file systems that do not report it, both are the logical block
 * size of the file system's device ({@code /sys/dev/block/MAJ:MIN[/..]/queue/logical_block_size}, what
 * {@code BLKSSZGET} returns), and failing that the file's preferred block size ({@code st_blksize}), which is a
 * multiple of it and so always safe. Used by the engines that run {@code O_DIRECT} files (Linux AIO, io_uring).
 *
 * @param memory  required alignment of the buffer's address (of the first byte to transfer)
 * @param offset  required alignment of the file position and of the length
 * @param source  where the values came from, for messages
 */
public record DirectIoAlignment(int memory, int offset, String source) {

    /**
     * Sets {@code O_DIRECT} on the open file of {@code fd} (every descriptor of that open file sees it) and returns
     * the alignment it needs.
     *
     * @param what names the file in messages (a path, a channel)
     * @throws IOException if the file system has no direct I/O, or the alignment cannot be read
     */
    public static DirectIoAlignment enable(int fd, Object what) throws IOException {
        int result = LinuxAioNative.setDirect(fd, true);
        if (result < 0) {
            throw new IOException("cannot open " + what + " with O_DIRECT: the file system does not support direct"
                    + " I/O (" + Errors.newException("fcntl(F_SETFL, O_DIRECT)", result).getMessage() + ")");
        }
        return of(fd, what);
    }

    /**
     * The alignment of the open file {@code fd}.
     *
     * @param path names the file in messages
     * @throws IOException if statx fails, or the file system reports that this file cannot do direct I/O
     */
    public static DirectIoAlignment of(int fd, Object path) throws IOException {
        NativeMemory out = NativeMemory.allocate(LinuxAioNative.DIO_ALIGNMENT_SIZE);
        int result = LinuxAioNative.dioAlignment(fd, out.address());
        Reference.reachabilityFence(out);
        Errors.check("statx", result);
        ByteBuffer b = out.buffer();
        int mask = b.getInt(0);
        int memory = b.getInt(4);
        int offset = b.getInt(8);
        int major = b.getInt(12);
        int minor = b.getInt(16);
        int blockSize = b.getInt(20);
        if (LinuxAioNative.STATX_DIOALIGN != 0 && (mask & LinuxAioNative.STATX_DIOALIGN) != 0) {
            if (memory == 0 || offset == 0) {
                throw new IOException("the file system of " + path + " does not support direct I/O (O_DIRECT)"
                        + " for this file (statx STATX_DIOALIGN reports 0)");
            }
            return new DirectIoAlignment(memory, offset, "statx STATX_DIOALIGN");
        }
        int logical = logicalBlockSize(major, minor);
        if (logical > 0) {
            return new DirectIoAlignment(logical, logical, "logical block size of device " + major + ":" + minor);
        }
        int fallback = blockSize > 0 ? blockSize : 4096;
        return new DirectIoAlignment(fallback, fallback, "st_blksize (no STATX_DIOALIGN, no block device)");
    }

    /** The logical block size of a block device (or of the disk a partition is on), or 0 if unknown. */
    private static int logicalBlockSize(int major, int minor) {
        Path device = Path.of("/sys/dev/block/" + major + ":" + minor);
        for (Path queue : new Path[] {device.resolve("queue"), device.resolve("../queue")}) {
            try {
                return Integer.parseInt(Files.readString(queue.resolve("logical_block_size")).trim());
            } catch (IOException | NumberFormatException | SecurityException e) {
                // not this one: a partition has no queue of its own, a virtual file system no device at all
            }
        }
        return 0;
    }

    /**
     * Why a transfer of {@code length} bytes at native {@code address} and file {@code position} breaks the rule,
     * or null when it does not. Allocates only for the message.
     */
    public String violation(long address, long length, long position) {
        if (address % memory != 0) {
            return "the buffer address " + Long.toHexString(address) + " (at its position) is not a multiple of "
                    + memory;
        }
        if (length % offset != 0) {
            return "the length " + length + " is not a multiple of " + offset;
        }
        if (position % offset != 0) {
            return "the file position " + position + " is not a multiple of " + offset;
        }
        return null;
    }

    /** The whole message for a misaligned request. */
    public String message(String violation) {
        return "O_DIRECT needs buffer address alignment " + memory + " and position and length alignment " + offset
                + " (" + source + "): " + violation + "; use a direct buffer from ByteBuffer.alignedSlice(" + memory
                + ") with a length that is a multiple of " + offset;
    }
}
