package dev.proactor;

import java.nio.file.OpenOption;

/**
 * Options of {@link AsynchChannel#openFile} and {@link AsynchChannel#wrapFile} beyond the
 * {@link java.nio.file.StandardOpenOption}s.
 */
public enum ProactorOpenOption implements OpenOption {

    /**
     * Opens the file for direct I/O ({@code O_DIRECT}): reads and writes bypass the page cache, which is what makes
     * the Linux AIO engine ({@code proactor.engine=linux-aio}) truly asynchronous, and keeps io_uring
     * ({@code proactor.engine=io_uring}) from handing cold reads to its kernel worker threads. Only engines that run
     * files themselves support it (those two); the built-in thread-pool file engine refuses it with an
     * {@link UnsupportedOperationException} at {@code openFile} or {@code wrapFile}, and a file system without
     * direct I/O (e.g. an old tmpfs) fails the open with an {@link java.io.IOException}.
     *
     * <p>Every read and write on such a channel must use a direct buffer whose address and remaining length, and a
     * file position, are multiples of the file's direct-I/O alignment ({@code STATX_DIOALIGN}, or the device's
     * logical block size on kernels without it; typically 512 or 4096 bytes). {@code ByteBuffer.alignedSlice}
     * makes such buffers. An operation that breaks the rule completes with an {@link IllegalArgumentException}
     * naming the required alignment; nothing reaches the kernel.
     */
    DIRECT
}
