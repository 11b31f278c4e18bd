package dev.proactor.nio2;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.OpAccept;
import dev.proactor.OpRead;
import dev.proactor.OpWrite;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.SocketOption;
import java.nio.channels.AlreadyBoundException;
import java.nio.channels.AsynchronousServerSocketChannel;
import java.nio.channels.AsynchronousSocketChannel;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.CompletionHandler;
import java.nio.channels.NotYetBoundException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.ShutdownChannelGroupException;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Future;

/**
 * An {@link AsynchronousServerSocketChannel} whose accepts run on its group's demultiplexor, with the JDK's
 * contract: one pending accept at a time ({@link java.nio.channels.AcceptPendingException}), a cancelled accept
 * future refuses further accepts, {@link #close()} fails a pending accept with
 * {@link java.nio.channels.AsynchronousCloseException}. The listening socket is a JDK
 * {@link ServerSocketChannel} (options and binding exactly as the JDK's), handed to the engine when bound.
 * Under a SecurityManager each accepted peer is checked in the context of the accept's caller
 * ({@link SecurityChecks}).
 *
 * <p>Thread-safe.
 */
final class ProactorServerSocketChannel extends AsynchronousServerSocketChannel {

    private final ProactorAsynchronousChannelProvider provider;
    private final ProactorChannelGroup group;
    private final ServerSocketChannel jdk;
    private final OperationSlot accepts;
    /** Leaves the group once closed and the last accept's handler has run. */
    private final ChannelDeliveries deliveries;
    private final Object stateLock = new Object();
    /** The engine's listening channel once bound; written under stateLock. */
    private volatile AsynchChannel listener;
    /**
     * The access control context of the pending accept's caller, in which its peer is checked (null without a
     * SecurityManager); written before the accept starts, read by its completion.
     */
    private volatile Object acceptContext;
    private volatile boolean closed;

    ProactorServerSocketChannel(ProactorAsynchronousChannelProvider provider, ProactorChannelGroup group)
            throws IOException {
        super(provider);
        this.provider = provider;
        this.group = group;
        this.deliveries = new ChannelDeliveries(() -> group.deregister(this));
        this.accepts = new OperationSlot(group, OperationSlot.Kind.ACCEPT, deliveries);
        this.jdk = ServerSocketChannel.open();
        try {
            group.register(this);
        } catch (RuntimeException e) {
            jdk.close();
            throw e;
        }
    }

    @Override
    public AsynchronousServerSocketChannel bind(SocketAddress local, int backlog) throws IOException {
        synchronized (stateLock) {
            checkOpen();
            if (listener != null) {
                throw new AlreadyBoundException();
            }
            jdk.bind(local == null ? new InetSocketAddress(0) : local, backlog); // checks the caller's listen
            listener = SecurityChecks.privileged(() -> new AsynchChannel(group.demultiplexor(), new Events(), jdk));
            listener.setCompletionsAtStart(true); // a connection already waiting is accepted on the caller
            listener.setOverlappingCallbacks(true); // a handler may wait for the next accept (see OperationSlot)
        }
        return this;
    }

    @Override
    public <A> void accept(A attachment, CompletionHandler<AsynchronousSocketChannel, ? super A> handler) {
        Objects.requireNonNull(handler, "'handler' is null");
        accept(attachment, handler, null);
    }

    @Override
    public Future<AsynchronousSocketChannel> accept() {
        IoFuture<AsynchronousSocketChannel> f = new IoFuture<>(accepts, this);
        accept(null, null, f);
        return f;
    }

    private void accept(Object attachment, CompletionHandler<?, ?> handler, IoFuture<?> future) {
        AsynchChannel l = listener;
        if (closed) {
            OperationSlot once = new OperationSlot(group, OperationSlot.Kind.ACCEPT, deliveries);
            once.begin(handler, attachment, future);
            once.finishNow(null, new ClosedChannelException());
            return;
        }
        if (l == null) {
            throw new NotYetBoundException();
        }
        if (group.isTerminated()) {
            throw new ShutdownChannelGroupException();
        }
        accepts.begin(handler, attachment, future);
        acceptContext = SecurityChecks.callerContext();
        try {
            if (future != null) {
                l.awaitNextOperation(true); // its caller may block the last thread that could poll for it
            }
            l.accept();
        } catch (RuntimeException | Error e) {
            accepts.abandon();
            throw e;
        }
    }

    @Override
    public SocketAddress getLocalAddress() throws IOException {
        checkOpen();
        return jdk.getLocalAddress();
    }

    @Override
    public <T> AsynchronousServerSocketChannel setOption(SocketOption<T> name, T value) throws IOException {
        SocketOptionSets.checkSet(SocketOptionSets.SERVER, name, value);
        checkOpen();
        jdk.setOption(name, value);
        return this;
    }

    @Override
    public <T> T getOption(SocketOption<T> name) throws IOException {
        SocketOptionSets.checkSupported(SocketOptionSets.SERVER, name);
        checkOpen();
        return jdk.getOption(name);
    }

    @Override
    public Set<SocketOption<?>> supportedOptions() {
        return SocketOptionSets.SERVER;
    }

    @Override
    public boolean isOpen() {
        return !closed;
    }

    /** Closes the listening socket: a pending accept fails with AsynchronousCloseException; idempotent. */
    @Override
    public void close() throws IOException {
        AsynchChannel l;
        synchronized (stateLock) {
            if (closed) {
                return;
            }
            closed = true;
            l = listener;
        }
        try {
            if (l != null) {
                l.close(); // closes the JDK channel too
            } else {
                jdk.close();
            }
        } finally {
            deliveries.close(); // leaves the group once the pending accept's handler has run
        }
    }

    private void checkOpen() throws ClosedChannelException {
        if (closed) {
            throw new ClosedChannelException();
        }
    }

    @Override
    public String toString() {
        return "ProactorServerSocketChannel[" + (listener == null ? jdk : listener) + "]";
    }

    /** The engine's accept completions, on the demultiplexor's threads; never throws. */
    private final class Events implements AsynchHandler {

        @Override
        public void onAcceptCompleted(OpAccept op) {
            Throwable e = op.getError();
            if (e != null) {
                accepts.finish(null, e);
                return;
            }
            ProactorSocketChannel child;
            try {
                SecurityChecks.checkAccept(acceptContext, op.getRemoteAddress());
            } catch (SecurityException denied) {
                // As the JDK: the accept fails and the connection is closed (not adopted: closed after this callback).
                accepts.finish(null, denied);
                return;
            }
            try {
                child = ProactorSocketChannel.accepted(provider, group, op);
            } catch (IOException failure) {
                accepts.finish(null, failure); // the connection was closed (never adopted)
                return;
            } catch (RuntimeException failure) {
                // As the JDK: e.g. a ShutdownChannelGroupException (the group was shut down) as an I/O error's cause.
                accepts.finish(null, new IOException(failure));
                return;
            }
            accepts.finish(child, null);
        }

        @Override
        public void onReadCompleted(OpRead op) {
            throw new IllegalStateException("a listening channel reads nothing");
        }

        @Override
        public void onWriteCompleted(OpWrite op) {
            throw new IllegalStateException("a listening channel writes nothing");
        }
    }
}
