/**
 * The JDK's asynchronous socket channels (NIO.2) and file channels on this project's engines: a drop-in
 * {@link java.nio.channels.spi.AsynchronousChannelProvider}, {@link
 * dev.proactor.nio2.ProactorAsynchronousChannelProvider}, switched on for a process with
 * {@code -Djava.nio.channels.spi.AsynchronousChannelProvider=dev.proactor.nio2.ProactorAsynchronousChannelProvider}.
 *
 * <p>How it maps: a {@link java.nio.channels.AsynchronousChannelGroup} is one {@link dev.proactor.Demultiplexor}
 * ({@link dev.proactor.nio2.ProactorChannelGroup} says where handlers run); an
 * {@link java.nio.channels.AsynchronousSocketChannel} is one {@link dev.proactor.AsynchChannel} whose directions
 * allow one pending operation each, as the JDK's; every completion is dispatched by the group's threads.
 * Operations reach the engine only from threads that outlive them (the engines see to that: a user thread that
 * starts a read and exits costs nothing).
 *
 * <p>Files: {@link dev.proactor.nio2.ProactorFiles} opens an {@link java.nio.channels.AsynchronousFileChannel} and a
 * {@link java.nio.channels.FileChannel} whose reads and writes run on a demultiplexor's file engine; a thread
 * blocked in the latter parks ({@link java.util.concurrent.locks.LockSupport}), so a virtual thread frees its
 * carrier. The channels themselves live in {@code dev.proactor.nio2.files} (not exported).
 */
package dev.proactor.nio2;
