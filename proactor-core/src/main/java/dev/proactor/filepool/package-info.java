/**
 * The built-in file engine {@code threadpool}: positional {@link java.nio.channels.FileChannel} reads and writes
 * run on a small bounded pool of worker threads, and their completions come out of the engine's wait strategy
 * like those of any other engine.
 *
 * <p>Why it is built into the core rather than an engine module: a selector cannot wait for regular files, so
 * every selector- or readiness-based engine (the emulated {@code nio} engine, a native epoll engine) needs a
 * second processor for files, whichever of them is configured; this engine has no native parts, it is chosen
 * with {@code proactor.fileEngine} rather than {@code proactor.engine} (it runs no sockets, so it must not be
 * offered as a main engine by the service loader), and the demultiplexor creates it directly. An engine that
 * supports {@link dev.proactor.spi.OpKind#READ_FILE} itself (e.g. Linux AIO) takes files over, because each
 * channel goes to the first processor whose engine supports its operations. Not exported: only the
 * demultiplexor uses it.
 */
package dev.proactor.filepool;
