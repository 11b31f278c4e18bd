package dev.proactor.nio2;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.OpAccept;
import dev.proactor.OpConnect;
import dev.proactor.OpRead;
import dev.proactor.OpWrite;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.SocketOption;
import java.nio.ByteBuffer;
import java.nio.channels.AlreadyBoundException;
import java.nio.channels.AlreadyConnectedException;
import java.nio.channels.AsynchronousSocketChannel;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.CompletionHandler;
import java.nio.channels.ConnectionPendingException;
import java.nio.channels.NotYetConnectedException;
import java.nio.channels.ShutdownChannelGroupException;
import java.nio.channels.SocketChannel;
import java.nio.channels.UnresolvedAddressException;
import java.nio.channels.UnsupportedAddressTypeException;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * An {@link AsynchronousSocketChannel} on an {@link AsynchChannel} of its group's demultiplexor, with the JDK's
 * contract: one pending read and one pending write at a time ({@link java.nio.channels.ReadPendingException},
 * {@link java.nio.channels.WritePendingException}), a timed-out read or write and a cancelled future refuse
 * further operations of their direction (a cancelled connect: reads and writes), a failed connect closes the channel, reads after
 * {@link #shutdownInput()} complete with -1 at once and writes after {@link #shutdownOutput()} fail with
 * {@link ClosedChannelException}, {@link #close()} fails pending operations with
 * {@link java.nio.channels.AsynchronousCloseException}. A write completes when every byte of its buffers was
 * written (the JDK's contract allows fewer; a program that loops on partial writes works unchanged), or, timed, when
 * its timeout runs out after some bytes went out: with their count, as the JDK's (only a timed write that wrote
 * nothing times out).
 *
 * <p>A channel opened by the provider is a JDK {@link SocketChannel} handed to the engine, so binding and socket
 * options before and after the connect behave exactly as the JDK's; an accepted channel is the engine's own socket.
 * Under a SecurityManager, {@code connect} and {@code getLocalAddress} make the JDK's checks ({@link SecurityChecks}).
 *
 * <p>Thread-safe.
 */
final class ProactorSocketChannel extends AsynchronousSocketChannel {

    private static final int UNCONNECTED = 0;
    private static final int CONNECTING = 1;
    private static final int CONNECTED = 2;

    private final ProactorChannelGroup group;
    /** The JDK channel a provider-opened channel is made of; null for an accepted one. */
    private final SocketChannel jdk;
    /** Reads and writes: one pending operation per direction, the JDK's results and exceptions. */
    private final StreamTransfers transfers;
    private final OperationSlot connects;
    private final AsynchChannel channel;
    /** Leaves the group once closed and every handler of this channel has run. */
    private final ChannelDeliveries deliveries;

    private final Object stateLock = new Object();
    /** Written under stateLock; volatile so reads and writes check it without the lock (once CONNECTED, it stays). */
    private volatile int state;
    /** The peer once connected; guarded by stateLock. */
    private SocketAddress remote;

    private ProactorSocketChannel(ProactorAsynchronousChannelProvider provider, ProactorChannelGroup group,
                                  SocketChannel jdk, OpAccept accepted) throws IOException {
        super(provider);
        this.group = group;
        this.jdk = jdk;
        this.deliveries = new ChannelDeliveries(() -> group.deregister(this));
        this.transfers = new StreamTransfers(group, deliveries);
        this.connects = new OperationSlot(group, OperationSlot.Kind.CONNECT, deliveries);
        group.register(this);
        try {
            Events events = new Events();
            if (jdk != null) {
                channel = new AsynchChannel(group.demultiplexor(), events, jdk);
            } else {
                channel = accepted.adopt(events);
                state = CONNECTED;
                remote = accepted.getRemoteAddress();
            }
            channel.setCompletionsAtStart(true); // what completes at once completes on the caller, as the JDK's
            channel.setOverlappingCallbacks(true); // a handler may wait for the next operation (see OperationSlot)
            transfers.runOn(channel);
        } catch (IOException | RuntimeException | Error e) {
            group.deregister(this);
            throw e;
        }
    }

    /** A new unconnected channel of {@code group}. */
    static ProactorSocketChannel open(ProactorAsynchronousChannelProvider provider, ProactorChannelGroup group)
            throws IOException {
        SocketChannel jdk = SocketChannel.open();
        try {
            return new ProactorSocketChannel(provider, group, jdk, null);
        } catch (IOException | RuntimeException | Error e) {
            jdk.close();
            throw e;
        }
    }

    /**
     * The channel of a connection {@code op} accepted (called in the accept's callback).
     *
     * @throws ShutdownChannelGroupException if the group is shut down (the connection is then closed)
     */
    static ProactorSocketChannel accepted(ProactorAsynchronousChannelProvider provider, ProactorChannelGroup group,
                                          OpAccept op) throws IOException {
        return new ProactorSocketChannel(provider, group, null, op);
    }

    // ---------------------------------------------------------------- connect, bind, addresses

    @Override
    public AsynchronousSocketChannel bind(SocketAddress local) throws IOException {
        synchronized (stateLock) {
            checkOpen();
            if (state == CONNECTING) {
                throw new ConnectionPendingException();
            }
            if (jdk == null || state == CONNECTED) {
                throw new AlreadyBoundException();
            }
            jdk.bind(local);
        }
        return this;
    }

    @Override
    public <A> void connect(SocketAddress remote, A attachment, CompletionHandler<Void, ? super A> handler) {
        Objects.requireNonNull(handler, "'handler' is null");
        connect(remote, attachment, handler, null);
    }

    @Override
    public Future<Void> connect(SocketAddress remote) {
        // A cancelled connect may still connect: as the JDK, reading and writing are refused from then on.
        IoFuture<Void> f = new IoFuture<>(() -> {
            transfers.reads.kill();
            transfers.writes.kill();
        }, this);
        connect(remote, null, null, f);
        return f;
    }

    private void connect(SocketAddress remote, Object attachment, CompletionHandler<Void, ?> handler,
                         IoFuture<Void> future) {
        if (!isOpen()) {
            failNow(handler, attachment, future, new ClosedChannelException());
            return;
        }
        InetSocketAddress target = checkAddress(remote);
        SecurityChecks.checkConnect(target);
        if (group.isTerminated()) {
            throw new ShutdownChannelGroupException();
        }
        synchronized (stateLock) {
            if (state == CONNECTED) {
                throw new AlreadyConnectedException();
            }
            if (state == CONNECTING) {
                throw new ConnectionPendingException();
            }
            connects.begin(handler, attachment, future);
            state = CONNECTING;
        }
        try {
            channel.connect(target);
        } catch (RuntimeException | Error e) {
            synchronized (stateLock) {
                state = UNCONNECTED;
            }
            connects.abandon();
            throw e;
        }
    }

    private static InetSocketAddress checkAddress(SocketAddress remote) {
        if (!(Objects.requireNonNull(remote, "remote") instanceof InetSocketAddress isa)) {
            throw new UnsupportedAddressTypeException();
        }
        if (isa.isUnresolved()) {
            throw new UnresolvedAddressException();
        }
        return isa;
    }

    @Override
    public SocketAddress getLocalAddress() throws IOException {
        checkOpen();
        boolean connected;
        synchronized (stateLock) {
            connected = state == CONNECTED;
        }
        // Before a connect the JDK channel knows its binding (and hides it as the JDK does); after one the engine's
        // socket has the address.
        return jdk != null && !connected ? jdk.getLocalAddress() : SecurityChecks.revealed(channel.getLocalAddress());
    }

    @Override
    public SocketAddress getRemoteAddress() throws IOException {
        checkOpen();
        synchronized (stateLock) {
            return remote;
        }
    }

    // ---------------------------------------------------------------- reads

    @Override
    public <A> void read(ByteBuffer dst, long timeout, TimeUnit unit, A attachment,
                         CompletionHandler<Integer, ? super A> handler) {
        Objects.requireNonNull(handler, "'handler' is null");
        StreamTransfers.checkWritable(dst);
        read(dst, null, 0, 0, timeout, unit, attachment, handler, null);
    }

    @Override
    public Future<Integer> read(ByteBuffer dst) {
        StreamTransfers.checkWritable(dst);
        IoFuture<Integer> f = new IoFuture<>(transfers.reads, this);
        read(dst, null, 0, 0, 0, TimeUnit.MILLISECONDS, null, null, f);
        return f;
    }

    @Override
    public <A> void read(ByteBuffer[] dsts, int offset, int length, long timeout, TimeUnit unit, A attachment,
                         CompletionHandler<Long, ? super A> handler) {
        Objects.requireNonNull(handler, "'handler' is null");
        StreamTransfers.checkRange(dsts, offset, length);
        for (int i = offset; i < offset + length; i++) {
            StreamTransfers.checkWritable(dsts[i]);
        }
        read(null, dsts, offset, length, timeout, unit, attachment, handler, null);
    }

    private void read(ByteBuffer dst, ByteBuffer[] dsts, int offset, int length, long timeout, TimeUnit unit,
                      Object attachment, CompletionHandler<?, ?> handler, IoFuture<?> future) {
        if (!isOpen()) {
            failNow(handler, attachment, future, new ClosedChannelException());
            return;
        }
        checkConnected();
        transfers.read(dst, dsts, offset, length, timeout, unit, attachment, handler, future);
    }

    // ---------------------------------------------------------------- writes

    @Override
    public <A> void write(ByteBuffer src, long timeout, TimeUnit unit, A attachment,
                          CompletionHandler<Integer, ? super A> handler) {
        Objects.requireNonNull(handler, "'handler' is null");
        write(Objects.requireNonNull(src, "src"), null, 0, 0, timeout, unit, attachment, handler, null);
    }

    @Override
    public Future<Integer> write(ByteBuffer src) {
        Objects.requireNonNull(src, "src");
        IoFuture<Integer> f = new IoFuture<>(transfers.writes, this);
        write(src, null, 0, 0, 0, TimeUnit.MILLISECONDS, null, null, f);
        return f;
    }

    @Override
    public <A> void write(ByteBuffer[] srcs, int offset, int length, long timeout, TimeUnit unit, A attachment,
                          CompletionHandler<Long, ? super A> handler) {
        Objects.requireNonNull(handler, "'handler' is null");
        StreamTransfers.checkRange(srcs, offset, length);
        write(null, srcs, offset, length, timeout, unit, attachment, handler, null);
    }

    private void write(ByteBuffer src, ByteBuffer[] srcs, int offset, int length, long timeout, TimeUnit unit,
                       Object attachment, CompletionHandler<?, ?> handler, IoFuture<?> future) {
        if (!isOpen()) {
            failNow(handler, attachment, future, new ClosedChannelException());
            return;
        }
        checkConnected();
        transfers.write(src, srcs, offset, length, timeout, unit, attachment, handler, future);
    }

    // ---------------------------------------------------------------- shutdown, options, close

    @Override
    public AsynchronousSocketChannel shutdownInput() throws IOException {
        checkOpen();
        checkConnected();
        if (!transfers.inputShut()) {
            channel.shutdownInput();
            transfers.inputShutDown();
        }
        return this;
    }

    @Override
    public AsynchronousSocketChannel shutdownOutput() throws IOException {
        checkOpen();
        checkConnected();
        if (!transfers.outputShut()) {
            channel.shutdownOutput();
            transfers.outputShutDown();
        }
        return this;
    }

    @Override
    public <T> AsynchronousSocketChannel setOption(SocketOption<T> name, T value) throws IOException {
        SocketOptionSets.checkSet(SocketOptionSets.SOCKET, name, value);
        checkOpen();
        if (jdk != null) {
            jdk.setOption(name, value);
        } else {
            channel.setOption(name, value);
        }
        return this;
    }

    @Override
    public <T> T getOption(SocketOption<T> name) throws IOException {
        SocketOptionSets.checkSupported(SocketOptionSets.SOCKET, name);
        checkOpen();
        return jdk != null ? jdk.getOption(name) : channel.getOption(name);
    }

    @Override
    public Set<SocketOption<?>> supportedOptions() {
        return SocketOptionSets.SOCKET;
    }

    @Override
    public boolean isOpen() {
        return channel.isOpen();
    }

    /**
     * Closes the channel: pending operations fail with {@link java.nio.channels.AsynchronousCloseException} (their
     * handlers run on the group's threads), the socket is released; idempotent. The channel leaves its group once
     * those handlers have run ({@link ChannelDeliveries}).
     */
    @Override
    public void close() throws IOException {
        transfers.closing();
        channel.close(); // closes the JDK channel too, if any
        deliveries.close();
    }

    private void checkOpen() throws ClosedChannelException {
        if (!channel.isOpen()) {
            throw new ClosedChannelException();
        }
    }

    private void checkConnected() {
        if (state != CONNECTED) { // read without the lock: CONNECTED is final, and every read and write checks
            throw new NotYetConnectedException();
        }
    }

    /** Fails an operation that was never started (a closed channel) through a one-off slot: a rare path. */
    private void failNow(CompletionHandler<?, ?> handler, Object attachment, IoFuture<?> future, Throwable error) {
        OperationSlot once = new OperationSlot(group, OperationSlot.Kind.READ, deliveries);
        once.begin(handler, attachment, future);
        once.finishNow(null, error);
    }

    @Override
    public String toString() {
        return "ProactorSocketChannel[" + channel + "]";
    }

    /** The engine's completions of this channel, on the demultiplexor's threads; never throws. */
    private final class Events implements AsynchHandler {

        @Override
        public void onReadCompleted(OpRead op) {
            transfers.onReadCompleted(op);
        }

        @Override
        public void onWriteCompleted(OpWrite op) {
            transfers.onWriteCompleted(op);
        }

        @Override
        public void onConnectCompleted(OpConnect op) {
            Throwable e = op.getError();
            synchronized (stateLock) {
                if (e == null) {
                    state = CONNECTED;
                    remote = op.getRemoteAddress();
                } else {
                    state = UNCONNECTED;
                }
            }
            if (e != null) {
                try {
                    close(); // as the JDK: a failed connect leaves the channel closed
                } catch (IOException closeFailure) {
                    e.addSuppressed(closeFailure);
                }
            }
            connects.finish(null, e);
        }
    }
}
