/**
 * The channels behind {@link dev.proactor.nio2.ProactorFiles}: the JDK's {@link java.nio.channels.FileChannel} and
 * {@link java.nio.channels.AsynchronousFileChannel} whose reads and writes run on a demultiplexor's file engine, so
 * that a virtual thread blocked in one parks and frees its carrier ({@link java.util.concurrent.locks.LockSupport}).
 *
 * <p>How it is cut: {@code ProactorFileChannel} and {@code ProactorAsynchronousFileChannel} are the channels; each
 * spreads its operations over the {@code FileLanes} of its file, several {@link dev.proactor.AsynchChannel}s
 * wrapping the same open file ("lanes", {@code proactor.fileLanes}), since one runs the operations of a direction
 * one after another; a {@code LaneTransfer} is one read or write on a lane ({@code BlockingTransfer} for a caller
 * that parks, {@code AsyncTransfer} for a handler or future), heap buffers move through {@code BounceBuffers};
 * everything else (size, truncate, force, locks, map, transfers) is done by the JDK's {@code FileChannel} on the
 * same open file. {@link dev.proactor.nio2.files.FileChannels} opens them.
 *
 * <p>Not exported: {@code ProactorFiles}, in the provider's package, is the public entry point; the thread-pool file
 * engine the lanes may run on is {@code dev.proactor.filepool}.
 */
package dev.proactor.nio2.files;
