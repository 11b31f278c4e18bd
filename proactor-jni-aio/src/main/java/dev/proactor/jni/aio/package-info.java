/**
 * The Linux AIO engine ({@code proactor.engine=linux-aio}): file reads and writes at a position as kernel
 * asynchronous operations ({@code io_submit} of {@code IOCB_CMD_PREAD}/{@code PWRITE} and their vectored forms,
 * {@code io_getevents}), sockets and datagrams on the epoll engine, both under one leader wait. Not exported; found
 * through {@link java.util.ServiceLoader}.
 *
 * <p>Buffered and direct files: the kernel runs a read or write of a file opened without {@code O_DIRECT} inside
 * {@code io_submit} (a page-cache copy, and a disk read when the pages are not cached), so for buffered files the
 * thread that starts the operation does the I/O and the completion comes out of the next wait. Only files opened
 * with {@link dev.proactor.ProactorOpenOption#DIRECT} are truly asynchronous: {@code io_submit} queues the request to
 * the device and returns. Buffered files are submitted all the same rather than handed to a thread pool: a
 * page-cache hit costs one system call either way, and whoever wants cold-cache files not to stall the starting
 * thread opens them with {@code DIRECT} (or keeps the thread-pool engine with another {@code proactor.engine}).
 *
 * <p>Completions: every iocb names the context's eventfd ({@code IOCB_FLAG_RESFD}); that eventfd is in the epoll
 * engine's epoll set, and the leader reaps the ring with {@code io_getevents} when it fires, so neither an extra
 * thread nor an extra wait is involved.
 */
package dev.proactor.jni.aio;
