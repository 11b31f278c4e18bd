package dev.proactor.tls;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.Demultiplexor;
import dev.proactor.OpAccept;
import dev.proactor.OpConnect;
import dev.proactor.OpRead;
import dev.proactor.OpTimer;
import dev.proactor.OpWrite;
import java.io.Closeable;
import java.io.IOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SocketChannel;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSession;

/**
 * A TLS connection over an {@link AsynchChannel}, driven by a JDK {@link SSLEngine}: the proactor's completion
 * model with plaintext. Configure the engine before (client or server mode, protocols such as
 * {@code TLSv1.3}/{@code TLSv1.2}, ALPN with {@code SSLParameters.setApplicationProtocols}, client
 * authentication, endpoint identification); the channel never changes it.
 *
 * <pre>{@code
 * SSLEngine engine = sslContext.createSSLEngine();
 * engine.setUseClientMode(false);
 * TlsChannel tls = TlsChannel.adopt(acceptOp, engine, handler);   // inside onAcceptCompleted
 * tls.handshake(null);                                           // -> handler.onHandshakeCompleted
 * tls.read(buffer, null);                                        // -> onReadCompleted, plaintext
 * }</pre>
 *
 * <p><b>Operations.</b> {@link #handshake(Object) handshake} (or {@link #connect connect}, which connects and
 * then handshakes) comes first; {@link #read read}, {@link #write write} and {@link #shutdownOutput
 * shutdownOutput} may be started as soon as it is, and begin when it has completed. A read completes with at
 * least one byte of plaintext, or end-of-stream when the peer sent {@code close_notify}. A write completes when
 * every plaintext byte has been encrypted and the resulting records written to the socket. {@code shutdownOutput}
 * sends {@code close_notify} after the writes started before it and then shuts the socket's output down. Several
 * operations of a direction (input: handshake, read; output: write, shutdown) may be pending; they complete in
 * start order, see {@link TlsHandler} for the threads.
 *
 * <p><b>Errors.</b> Misuse visible at the call throws and starts nothing: a null, read-only or full read buffer,
 * a read, write or shutdown before the handshake was started ({@link IllegalStateException}), a second
 * handshake or shutdown. Everything else is the operation's {@link TlsOp#getError() error}: handshake failures
 * ({@link javax.net.ssl.SSLHandshakeException}), a connection that ended without {@code close_notify}
 * ({@link TlsTruncationException}), I/O errors, and operations on a closed channel
 * ({@link ClosedChannelException}). A TLS or I/O error is fatal: every pending operation completes with it, the
 * TLS alert the engine produced (if any) is sent, and the socket is closed. Every started operation completes
 * exactly once.
 *
 * <p><b>Delegated tasks</b> of the engine (certificate checks, key exchange) run on an {@link Executor} (by
 * default the common {@link ForkJoinPool}), never on the demultiplexor's threads; the channel goes on when they
 * are done.
 *
 * <p><b>Memory.</b> A channel keeps one direct buffer of its own, for the ciphertext a socket read brings (4 KiB at
 * first, doubled up to the engine's packet size each time a read fills it); the buffers the engine encrypts into and
 * decrypts from, and plaintext a read's buffer had no room for, are heap and direct buffers shared by the process's
 * channels, held only while they hold bytes. The engine works on heap buffers, the socket on direct ones.
 *
 * <p><b>Threads.</b> All methods are thread-safe and none blocks on I/O. The engine's wrap and unwrap run under the
 * lock of the channel's engine loop (one per channel), its delegated tasks on the task executor without it, as
 * {@link SSLEngine} allows; handlers are called without any lock.
 */
public final class TlsChannel implements Closeable {

    private final SSLEngine engine;
    private final Executor tasks;
    private final TlsDispatch dispatch;
    private final TlsEngineLoop loop;
    private final AsynchHandler transportHandler = new TransportHandler();
    /** Set once by the factory, before any operation can start. */
    private AsynchChannel transport;

    private TlsChannel(Demultiplexor demux, SSLEngine engine, Executor tasks, TlsHandler handler) {
        this.engine = Objects.requireNonNull(engine, "engine");
        this.tasks = Objects.requireNonNull(tasks, "tasks");
        this.dispatch = new TlsDispatch(this, Objects.requireNonNull(handler, "handler"), demux);
        this.loop = new TlsEngineLoop(this, engine, dispatch);
        dispatch.setKick(demux.newTimer(transportHandler));
    }

    /**
     * The server side of an accepted connection: adopts it (call this inside
     * {@link AsynchHandler#onAcceptCompleted}) and returns the channel; start {@link #handshake(Object)} next.
     * Delegated tasks run on the common {@link ForkJoinPool}.
     *
     * @throws IOException           if the connection cannot be registered (it is then closed)
     * @throws IllegalStateException if the accept failed or its connection was already adopted
     */
    public static TlsChannel adopt(OpAccept accepted, SSLEngine engine, TlsHandler handler) throws IOException {
        return adopt(accepted, engine, ForkJoinPool.commonPool(), handler);
    }

    /** As {@link #adopt(OpAccept, SSLEngine, TlsHandler)}, running delegated tasks on {@code tasks}. */
    public static TlsChannel adopt(OpAccept accepted, SSLEngine engine, Executor tasks, TlsHandler handler)
            throws IOException {
        TlsChannel tls = new TlsChannel(accepted.getChannel().getDemultiplexor(), engine, tasks, handler);
        tls.transport = accepted.adopt(tls.transportHandler);
        return tls;
    }

    /**
     * Wraps a connected {@code SocketChannel} (owned by the returned channel from now on); start
     * {@link #handshake(Object)} next.
     *
     * @throws IOException if the channel cannot be registered
     */
    public static TlsChannel wrap(Demultiplexor demux, SocketChannel connected, SSLEngine engine, Executor tasks,
                                  TlsHandler handler) throws IOException {
        TlsChannel tls = new TlsChannel(demux, engine, tasks, handler);
        tls.transport = new AsynchChannel(demux, tls.transportHandler, connected);
        return tls;
    }

    /**
     * The client side: opens a socket, connects it to {@code remote} and handshakes; the handshake completion
     * (with the attachment) reports both, a connect error included. Reads and writes may be started at once.
     * Delegated tasks run on the common {@link ForkJoinPool}.
     *
     * @throws IOException if the socket cannot be opened
     */
    public static TlsChannel connect(Demultiplexor demux, SocketAddress remote, SSLEngine engine,
                                     TlsHandler handler, Object attachment) throws IOException {
        return connect(demux, remote, engine, ForkJoinPool.commonPool(), handler, attachment);
    }

    /** As {@link #connect(Demultiplexor, SocketAddress, SSLEngine, TlsHandler, Object)}, with a task executor. */
    public static TlsChannel connect(Demultiplexor demux, SocketAddress remote, SSLEngine engine, Executor tasks,
                                     TlsHandler handler, Object attachment) throws IOException {
        Objects.requireNonNull(remote, "remote");
        TlsChannel tls = new TlsChannel(demux, engine, tasks, handler);
        tls.transport = AsynchChannel.openSocket(demux, tls.transportHandler);
        tls.loop.startConnect(attachment);
        tls.transport.connect(remote);
        return tls;
    }

    // ---------------------------------------------------------------- operations

    /**
     * Starts the handshake; {@link TlsHandler#onHandshakeCompleted} follows.
     *
     * @throws IllegalStateException if a handshake was already started (also by {@link #connect})
     */
    public void handshake(Object attachment) {
        perform(loop.handshake(attachment), false);
    }

    /**
     * Reads plaintext into {@code dst}: completes with at least one byte, at end-of-stream ({@code close_notify}
     * received), or with an error.
     *
     * @throws IllegalArgumentException if {@code dst} is read-only or full
     * @throws IllegalStateException    if no handshake was started
     */
    public void read(ByteBuffer dst, Object attachment) {
        Objects.requireNonNull(dst, "dst");
        if (dst.isReadOnly()) {
            throw new IllegalArgumentException("read into a read-only buffer");
        }
        if (!dst.hasRemaining()) {
            throw new IllegalArgumentException("read into a buffer with no space remaining");
        }
        perform(loop.read(dst, attachment), false);
    }

    /** Writes all of {@code src}; see {@link #write(ByteBuffer[], int, int, Object)}. */
    public void write(ByteBuffer src, Object attachment) {
        Objects.requireNonNull(src, "src");
        perform(loop.write(null, src, 0, 1, attachment), false);
    }

    /**
     * Encrypts and sends every remaining byte of {@code srcs[offset .. offset+length)}; completes when all records
     * were written to the socket, or with an error.
     *
     * @throws IndexOutOfBoundsException if the range is outside the array
     * @throws IllegalStateException     if no handshake was started
     */
    public void write(ByteBuffer[] srcs, int offset, int length, Object attachment) {
        Objects.checkFromIndexSize(offset, length, Objects.requireNonNull(srcs, "srcs").length);
        for (int i = offset; i < offset + length; i++) {
            Objects.requireNonNull(srcs[i], "srcs[" + i + "]");
        }
        perform(loop.write(srcs, null, offset, length, attachment), false);
    }

    /**
     * After the writes started before it, sends {@code close_notify} and shuts the socket's output down;
     * completes with {@link TlsHandler#onShutdownCompleted}. Writes started later complete with
     * {@link ClosedChannelException}; reads go on (TLS 1.3 peers may keep sending; TLS 1.2 peers answer with
     * their {@code close_notify}, which reads see as end-of-stream). Close the channel when done.
     *
     * @throws IllegalStateException if no handshake was started, or shutdown was already started
     */
    public void shutdownOutput(Object attachment) {
        perform(loop.shutdown(attachment), false);
    }

    /**
     * Closes the socket at once, without {@code close_notify} (use {@link #shutdownOutput(Object)} first for an
     * orderly end): pending operations complete with {@link AsynchronousCloseException}, later ones with
     * {@link ClosedChannelException}. Idempotent.
     */
    @Override
    public void close() {
        perform(loop.close(), false);
    }

    /** Whether {@link #close()} was not called and no fatal error closed the channel. */
    public boolean isOpen() {
        return loop.isOpen();
    }

    /** The protocol ALPN selected ({@code ""} if none), {@code null} before the handshake completed. */
    public String getApplicationProtocol() {
        return engine.getApplicationProtocol();
    }

    /** The TLS session (protocol, cipher suite, peer certificates) once the handshake completed. */
    public SSLSession getSession() {
        return engine.getSession();
    }

    /** The socket under the TLS layer, for options and addresses; never start operations on it. */
    public AsynchChannel getTransport() {
        return transport;
    }

    @Override
    public String toString() {
        return "TlsChannel[" + transport + "]";
    }

    // ---------------------------------------------------------------- driving the socket

    /** Recycles an operation after its callback. */
    void release(TlsOp op) {
        loop.release(op);
    }

    /**
     * Carries out what the loop decided under its lock: socket operations, delegated tasks, callbacks. Called
     * without the lock; {@code inline} when on a demultiplexor thread inside a transport callback.
     */
    private void perform(int actions, boolean inline) {
        if ((actions & TlsEngineLoop.RUN_TASKS) != 0) {
            try {
                tasks.execute(this::runDelegatedTasks);
            } catch (RuntimeException e) {
                actions |= loop.taskFailed(e);
            }
        }
        if ((actions & TlsEngineLoop.START_WRITE) != 0) {
            transport.write(loop.outgoing());
        }
        if ((actions & TlsEngineLoop.START_READ) != 0) {
            transport.read(loop.incoming());
        }
        if ((actions & TlsEngineLoop.SHUTDOWN_SOCKET) != 0) {
            try {
                transport.shutdownOutput();
            } catch (IOException e) {
                TlsEngineLoop.LOG.debug("{}: shutting the socket's output down failed", this, e);
            }
        }
        if ((actions & TlsEngineLoop.CLOSE_SOCKET) != 0) {
            transport.close();
        }
        dispatch.run(inline);
    }

    private void runDelegatedTasks() {
        Throwable error = null;
        try {
            Runnable task;
            while ((task = engine.getDelegatedTask()) != null) {
                task.run();
            }
        } catch (RuntimeException | Error e) {
            error = e;
        }
        perform(loop.tasksDone(error), false);
    }

    /** Receives the socket's completions (and the dispatch kick) on demultiplexor threads. */
    private final class TransportHandler implements AsynchHandler {

        @Override
        public void onReadCompleted(OpRead op) {
            perform(loop.readCompleted(op.getError(), op.getBytesCompleted()), true);
        }

        @Override
        public void onWriteCompleted(OpWrite op) {
            perform(loop.writeCompleted(op.getError(), op.getBytesCompleted()), true);
        }

        @Override
        public void onConnectCompleted(OpConnect op) {
            perform(loop.connectCompleted(op.getError()), true);
        }

        @Override
        public void onTimerCompleted(OpTimer op) {
            dispatch.drainAll();
        }
    }
}
