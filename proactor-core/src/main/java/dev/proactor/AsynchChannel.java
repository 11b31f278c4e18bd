package dev.proactor;

import dev.proactor.spi.EngineChannel;
import dev.proactor.spi.OpKind;
import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectableChannel;
import java.util.Objects;

/**
 * A socket bound to one {@link Demultiplexor} and one {@link AsynchHandler}, on which proactive operations are
 * started: each call returns at once and the handler is called when the operation has completed.
 *
 * <p><b>Ordering.</b> Several operations of one direction may be pending (input: read, accept; output: write,
 * connect); they run one after another and complete in the order they were started. A completion of one
 * direction is dispatched only after the previous completion of that direction has returned from its callback.
 *
 * <p><b>Errors.</b> Misuse that the caller can see at once (a null, read-only or full buffer, an array range out
 * of bounds) throws {@link IllegalArgumentException} or {@link NullPointerException} from the starting call and
 * starts nothing. Everything else, I/O errors and operations on a closed channel included, is delivered to the
 * handler as the operation's {@link ChannelOp#getError() error}; every started operation completes exactly once.
 *
 * <p><b>Buffers.</b> Heap and direct buffers are both accepted by the emulated engine (for heap buffers the JDK
 * copies through a direct buffer); native engines document their own rule. The caller must not touch a buffer
 * while an operation on it is pending.
 *
 * <p><b>Threads.</b> All methods are thread-safe and never block on I/O.
 */
public final class AsynchChannel implements Closeable {

    private final Demultiplexor demultiplexor;
    private final Processor processor;
    private final AsynchHandler handler;
    private final EngineChannel engineChannel;

    final ChannelDirection input = new ChannelDirection("input");
    final ChannelDirection output = new ChannelDirection("output");

    // Free lists of reusable operations, guarded by the lock of their direction.
    private ChannelOp freeReads;
    private ChannelOp freeAccepts;
    private ChannelOp freeWrites;
    private ChannelOp freeConnects;

    private volatile boolean closed;

    /**
     * Wraps a channel made by the caller (the seed's constructor): a {@code SocketChannel} or
     * {@code ServerSocketChannel}, connected or not. The channel is switched to non-blocking mode and owned by
     * this object from now on ({@link #close()} closes it).
     *
     * @throws IllegalArgumentException if the demultiplexor's engine cannot work on this kind of channel
     * @throws IllegalStateException    if the demultiplexor is closed
     * @throws IOException              if the channel cannot be registered
     */
    public AsynchChannel(Demultiplexor demultiplexor, AsynchHandler handler, SelectableChannel channel)
            throws IOException {
        this(demultiplexor, handler, demultiplexor.register(Objects.requireNonNull(channel, "channel")), true);
    }

    private AsynchChannel(Demultiplexor demultiplexor, AsynchHandler handler, Registration registration,
                          boolean track) {
        this.demultiplexor = demultiplexor;
        this.handler = Objects.requireNonNull(handler, "handler");
        this.processor = registration.processor();
        this.engineChannel = registration.channel();
        if (track) {
            demultiplexor.track(this);
        }
    }

    /** A processor and the engine's state of a channel registered with it. */
    record Registration(Processor processor, EngineChannel channel) {
    }

    /**
     * Opens a listening socket bound to {@code local} (port 0 picks a free port).
     *
     * @param backlog the listen backlog, 0 for the system default
     * @throws java.net.BindException if the address is in use
     */
    public static AsynchChannel openServer(Demultiplexor demultiplexor, AsynchHandler handler, SocketAddress local,
                                           int backlog) throws IOException {
        Objects.requireNonNull(handler, "handler");
        Objects.requireNonNull(local, "local");
        return new AsynchChannel(demultiplexor, handler, demultiplexor.openServer(local, backlog), true);
    }

    /** Opens an unconnected stream socket; start {@link #connect(SocketAddress)} on it. */
    public static AsynchChannel openSocket(Demultiplexor demultiplexor, AsynchHandler handler) throws IOException {
        Objects.requireNonNull(handler, "handler");
        return new AsynchChannel(demultiplexor, handler, demultiplexor.openSocket(null), true);
    }

    AsynchChannel adoptAccepted(Object acceptedHandle, AsynchHandler newHandler) throws IOException {
        Objects.requireNonNull(newHandler, "handler");
        return new AsynchChannel(demultiplexor, newHandler, demultiplexor.adopt(processor, acceptedHandle), true);
    }

    // ---------------------------------------------------------------- operations

    /** Reads into {@code dst}; see {@link #read(ByteBuffer[], int, int, Object)}. */
    public void read(ByteBuffer dst) {
        read(dst, null);
    }

    /** Reads into {@code dst} with an attachment returned by {@link Op#getAttachment()}. */
    public void read(ByteBuffer dst, Object attachment) {
        checkReadable(Objects.requireNonNull(dst, "dst"));
        if (!dst.hasRemaining()) {
            throw new IllegalArgumentException("read into a buffer with no space remaining");
        }
        OpRead op = takeRead();
        op.request.prepare(OpKind.READ, engineChannel).buffer(dst);
        submit(op, attachment);
    }

    /** Scattering read into {@code dsts}. */
    public void read(ByteBuffer[] dsts) {
        read(dsts, 0, Objects.requireNonNull(dsts, "dsts").length, null);
    }

    /**
     * Scattering read into {@code dsts[offset .. offset+length)}: completes when at least one byte was read or
     * at end-of-stream.
     *
     * @throws IllegalArgumentException if a buffer is read-only or none has space remaining
     * @throws IndexOutOfBoundsException if the range is outside the array
     */
    public void read(ByteBuffer[] dsts, int offset, int length, Object attachment) {
        Objects.checkFromIndexSize(offset, length, Objects.requireNonNull(dsts, "dsts").length);
        boolean space = false;
        for (int i = offset; i < offset + length; i++) {
            checkReadable(Objects.requireNonNull(dsts[i], "dsts[" + i + "]"));
            space |= dsts[i].hasRemaining();
        }
        if (!space) {
            throw new IllegalArgumentException("read into buffers with no space remaining");
        }
        OpRead op = takeRead();
        op.request.prepare(OpKind.READ, engineChannel).buffers(dsts, offset, length);
        submit(op, attachment);
    }

    /** Writes all of {@code src}; see {@link #write(ByteBuffer[], int, int, Object)}. */
    public void write(ByteBuffer src) {
        write(src, null);
    }

    /** Writes all of {@code src} with an attachment. */
    public void write(ByteBuffer src, Object attachment) {
        Objects.requireNonNull(src, "src");
        OpWrite op = takeWrite();
        op.request.prepare(OpKind.WRITE, engineChannel).buffer(src);
        submit(op, attachment);
    }

    /** Gathering write of all of {@code srcs}. */
    public void write(ByteBuffer[] srcs) {
        write(srcs, 0, Objects.requireNonNull(srcs, "srcs").length, null);
    }

    /**
     * Gathering write of every remaining byte of {@code srcs[offset .. offset+length)}: completes when all are
     * written (the engine continues partial writes) or on error.
     *
     * @throws IndexOutOfBoundsException if the range is outside the array
     */
    public void write(ByteBuffer[] srcs, int offset, int length, Object attachment) {
        Objects.checkFromIndexSize(offset, length, Objects.requireNonNull(srcs, "srcs").length);
        for (int i = offset; i < offset + length; i++) {
            Objects.requireNonNull(srcs[i], "srcs[" + i + "]");
        }
        OpWrite op = takeWrite();
        op.request.prepare(OpKind.WRITE, engineChannel).buffers(srcs, offset, length);
        submit(op, attachment);
    }

    /** Accepts one connection (on a listening channel). */
    public void accept() {
        accept(null);
    }

    /** Accepts one connection with an attachment. */
    public void accept(Object attachment) {
        OpAccept op = takeAccept();
        op.request.prepare(OpKind.ACCEPT, engineChannel);
        submit(op, attachment);
    }

    /** Connects to {@code remote}. */
    public void connect(SocketAddress remote) {
        connect(remote, null);
    }

    /**
     * Connects to {@code remote}.
     *
     * @throws IllegalArgumentException if {@code remote} is an unresolved {@link InetSocketAddress}
     */
    public void connect(SocketAddress remote, Object attachment) {
        Objects.requireNonNull(remote, "remote");
        if (remote instanceof InetSocketAddress isa && isa.isUnresolved()) {
            throw new IllegalArgumentException("unresolved address: " + remote);
        }
        OpConnect op = takeConnect();
        op.request.prepare(OpKind.CONNECT, engineChannel).address(remote);
        submit(op, attachment);
    }

    private static void checkReadable(ByteBuffer b) {
        if (b.isReadOnly()) {
            throw new IllegalArgumentException("read into a read-only buffer");
        }
    }

    private void submit(ChannelOp op, Object attachment) {
        op.attachment = attachment;
        op.state = OpState.INITIALIZED;
        ChannelDirection d = op.direction;
        boolean startNow;
        synchronized (d) {
            if (d.closed) {
                startNow = false;
            } else {
                startNow = d.admit(op);
                if (!startNow) {
                    return; // waits behind the active operation of this direction
                }
            }
        }
        if (startNow) {
            processor.start(op);
        } else {
            failUnstarted(op, new ClosedChannelException());
        }
    }

    private void failUnstarted(ChannelOp op, Throwable error) {
        op.request.fail(error);
        demultiplexor.dispatcher().postResult(op, OpState.START_ERROR);
    }

    // ---------------------------------------------------------------- dispatch (called by the dispatcher)

    void dispatch(ChannelOp op) throws Exception {
        switch (op.getKind()) {
            case READ -> handler.onReadCompleted((OpRead) op);
            case WRITE -> handler.onWriteCompleted((OpWrite) op);
            case ACCEPT -> handler.onAcceptCompleted((OpAccept) op);
            case CONNECT -> handler.onConnectCompleted((OpConnect) op);
            default -> throw new IllegalStateException("unexpected operation kind " + op.getKind());
        }
    }

    void onHandlerFailure(ChannelOp op, Throwable failure) {
        Dispatcher.LOG.error("handler {} failed in {} completion; closing {}", handler, op.getKind(), this, failure);
        close();
    }

    /** Recycles the operation and starts the next one of its direction. */
    void afterDispatch(ChannelOp op) {
        Object unadopted = op.request.takeAcceptedHandle();
        if (unadopted != null) {
            processor.engine().discard(unadopted); // not adopted by the handler: close it, never leak it
        }
        ChannelDirection d = op.direction;
        ChannelOp next;
        synchronized (d) {
            op.attachment = null;
            op.request.clearReferences();
            recycleLocked(op);
            next = d.active == op ? d.finishActive() : null;
        }
        if (next != null) {
            processor.start(next);
        }
    }

    // ---------------------------------------------------------------- cancel and close

    /**
     * Cancels every pending operation of this channel: operations not yet finished complete with
     * {@link OperationCancelledException} (a write may have written some bytes first: see
     * {@link ChannelOp#getBytesCompleted()}); those that already finished complete with their result. The
     * channel stays open.
     */
    public void cancel() {
        abortAll(false);
    }

    /**
     * Closes the channel: every pending operation completes exactly once, with
     * {@link AsynchronousCloseException} unless it had already finished; later operations complete with
     * {@link ClosedChannelException}. The descriptor is released by the engine once no thread uses it.
     * Idempotent.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        abortAll(true);
    }

    private void abortAll(boolean close) {
        OpQueue unstarted = new OpQueue();
        ChannelOp activeIn;
        ChannelOp activeOut;
        synchronized (input) {
            if (close) {
                if (input.closed) {
                    return;
                }
                input.closed = true;
                closed = true;
            }
            input.waiting.drainTo(unstarted);
            activeIn = input.active;
        }
        synchronized (output) {
            if (close) {
                output.closed = true;
            }
            output.waiting.drainTo(unstarted);
            activeOut = output.active;
        }
        if (close) {
            // Close the engine's channel first: a start racing with us then fails at once instead of
            // becoming pending after our cancel below.
            try {
                engineChannel.close();
            } catch (IOException e) {
                Dispatcher.LOG.debug("closing {} failed", this, e);
            }
            demultiplexor.untrack(this);
        }
        cancelActive(activeIn, close);
        cancelActive(activeOut, close);
        for (Op op = unstarted.poll(); op != null; op = unstarted.poll()) {
            failUnstarted((ChannelOp) op, abortReason(close));
        }
    }

    private void cancelActive(ChannelOp op, boolean close) {
        if (op != null) {
            processor.cancel(op, abortReason(close));
        }
    }

    private static Throwable abortReason(boolean close) {
        return close ? new AsynchronousCloseException() : new OperationCancelledException();
    }

    /** Shuts the output side down (the peer reads end-of-stream); reads continue to work. */
    public void shutdownOutput() throws IOException {
        if (closed) {
            throw new ClosedChannelException();
        }
        engineChannel.shutdownOutput();
    }

    /** Whether {@link #close()} has not been called. */
    public boolean isOpen() {
        return !closed;
    }

    /** The local address, or {@code null} if unbound. */
    public SocketAddress getLocalAddress() throws IOException {
        return engineChannel.localAddress();
    }

    /** The remote address, or {@code null} if not connected. */
    public SocketAddress getRemoteAddress() throws IOException {
        return engineChannel.remoteAddress();
    }

    public AsynchHandler getHandler() {
        return handler;
    }

    public Demultiplexor getDemultiplexor() {
        return demultiplexor;
    }

    // ---------------------------------------------------------------- operation pools

    private OpRead takeRead() {
        synchronized (input) {
            ChannelOp op = freeReads;
            if (op != null) {
                freeReads = op.nextFree;
                op.nextFree = null;
                return (OpRead) op;
            }
        }
        return new OpRead(this);
    }

    private OpAccept takeAccept() {
        synchronized (input) {
            ChannelOp op = freeAccepts;
            if (op != null) {
                freeAccepts = op.nextFree;
                op.nextFree = null;
                return (OpAccept) op;
            }
        }
        return new OpAccept(this);
    }

    private OpWrite takeWrite() {
        synchronized (output) {
            ChannelOp op = freeWrites;
            if (op != null) {
                freeWrites = op.nextFree;
                op.nextFree = null;
                return (OpWrite) op;
            }
        }
        return new OpWrite(this);
    }

    private OpConnect takeConnect() {
        synchronized (output) {
            ChannelOp op = freeConnects;
            if (op != null) {
                freeConnects = op.nextFree;
                op.nextFree = null;
                return (OpConnect) op;
            }
        }
        return new OpConnect(this);
    }

    /** Puts a dispatched operation on its free list. Caller holds its direction's lock. */
    private void recycleLocked(ChannelOp op) {
        op.state = OpState.INITIALIZED;
        switch (op.getKind()) {
            case READ -> {
                op.nextFree = freeReads;
                freeReads = op;
            }
            case ACCEPT -> {
                op.nextFree = freeAccepts;
                freeAccepts = op;
            }
            case WRITE -> {
                op.nextFree = freeWrites;
                freeWrites = op;
            }
            case CONNECT -> {
                op.nextFree = freeConnects;
                freeConnects = op;
            }
            default -> throw new IllegalStateException("unexpected operation kind " + op.getKind());
        }
    }

    @Override
    public String toString() {
        return "AsynchChannel[" + engineChannel + (closed ? ", closed" : "") + "]";
    }
}
