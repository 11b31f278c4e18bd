/**
 * What the native engines share above the raw bindings of {@code dev.proactor.jni.internal}; not exported by the
 * module.
 *
 * <p>Sockets of the epoll and io_uring engines: {@link dev.proactor.jni.engine.EngineSockets} opens, binds and
 * registers them, {@link dev.proactor.jni.engine.SocketDescriptors} (with {@code SocketOptions}) asks and sets their
 * addresses, shutdown and options, {@link dev.proactor.jni.engine.AcceptedSocket} holds an accepted descriptor until
 * a channel adopts it, and {@link dev.proactor.jni.engine.SocketAddresses} gives addresses and datagram failures as
 * the JDK's channels report them. Heap buffers: {@link dev.proactor.jni.engine.BounceCopies} moves their bytes to and
 * from a bounce block, {@link dev.proactor.jni.engine.BounceBlocks} lends the process-wide blocks a one-call transfer
 * uses, and {@link dev.proactor.jni.engine.NativeScratch} is a direction's own memory (buffer address, iovecs, block,
 * socket address). Files: {@link dev.proactor.jni.engine.DirectIoAlignment} checks {@code O_DIRECT} transfers
 * (Linux AIO and io_uring). Closing: {@link dev.proactor.jni.engine.CloseFailures} keeps closing after a failure.
 *
 * <p>These classes call the bindings only through their checked forms or with addresses and lengths derived from
 * them (see {@code dev.proactor.jni.internal}); threads and errors are stated on each class.
 */
package dev.proactor.jni.engine;
