/**
 * The epoll engine: proactive operations over the native library's epoll bindings, run by the core's
 * leader/follower processor. Not exported; found through {@link java.util.ServiceLoader} as engine
 * {@code epoll}.
 *
 * <p>It runs stream sockets (read, write, accept, connect), datagram sockets (receive, send, in
 * {@link dev.proactor.jni.epoll.EpollDatagrams}) and file transmission to a stream socket
 * ({@link dev.proactor.jni.epoll.EpollTransmit}, with {@code sendfile}); not file reads and writes, which the core
 * runs on its file engine.
 *
 * <p>How a request completes: {@link dev.proactor.jni.epoll.EpollEngine#start} ({@code EpollStarter}) tries the
 * non-blocking system call at once: a stream read or write outside the channel's lock, with the channel marked as
 * trying so that an event arriving meanwhile is noted and the try repeated, every other kind under the lock (a
 * stream read whose last read drained the socket, with no poll since, waits for the next event untried). On
 * {@code EAGAIN} the request stays pending in the channel, and the leader, on an epoll event for that channel
 * ({@code EpollReadiness}), repeats the call under the channel's lock and queues the finished request for
 * {@link dev.proactor.spi.WaitStrategy#nextCompleted()}.
 *
 * <p>Every descriptor is registered once, edge-triggered, for input and output. That avoids an
 * {@code epoll_ctl} per operation, and loses no event because a request is always tried once before it
 * is parked, and parking happens under the lock the leader takes before it looks for a parked request:
 * an edge that arrives before the request is parked finds the data still there for the first try, and
 * one that arrives after finds the request.
 *
 * <p>Descriptor lifetime: every system call on a channel's descriptor is made only while it is open, holding the
 * channel's lock, or, for a stream try at start, with the channel marked as trying under that lock;
 * {@link dev.proactor.jni.epoll.EpollChannel#close()} marks it closed under that lock and releases the descriptor
 * only once no try is running ({@link dev.proactor.jni.epoll.EpollChannel#deferRelease()}), so no thread is ever
 * inside a call on a number the kernel may hand out again. Events still in flight for a closed channel carry an id
 * whose generation no longer matches and are dropped. A transmission reads its file through the engine's own
 * duplicate of the file's descriptor ({@link dev.proactor.jni.epoll.TransmitSource}), used under the same lock
 * and closed when the transmission ends, is cancelled, or the channel closes.
 *
 * <p>The same holds for a JDK channel the user registered: the engine works on its own duplicate of the
 * channel's descriptor, never on the JDK's number, which the user could free by closing the JDK channel
 * directly (the next socket of the process would then get it). Such a close is noticed under the channel's
 * lock before each system call and on each event; the engine then releases its duplicate (ending the
 * connection), fails the parked requests with {@link java.nio.channels.AsynchronousCloseException} (the leader
 * does, from a queue, when another thread noticed) and later ones with
 * {@link java.nio.channels.ClosedChannelException}.
 *
 * <p>Buffers: every address and length given to the kernel come from one read of the buffer's position and
 * limit, checked against its capacity, and a buffer whose memory was freed is refused
 * ({@link dev.proactor.jni.internal.DirectBuffers}).
 */
package dev.proactor.jni.epoll;
