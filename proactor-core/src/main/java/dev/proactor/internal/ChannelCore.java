package dev.proactor.internal;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.OpAccept;
import dev.proactor.OpConnect;
import dev.proactor.OpRead;
import dev.proactor.OpReceive;
import dev.proactor.OpSend;
import dev.proactor.OpTransmit;
import dev.proactor.OpWrite;
import dev.proactor.spi.EngineChannel;
import dev.proactor.spi.OpKind;
import java.io.IOException;
import java.net.SocketAddress;
import java.net.SocketOption;
import java.nio.channels.Channel;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.InterruptedByTimeoutException;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The state of one {@link AsynchChannel}: its two directions, the processor and engine channel serving it, its
 * closed flag, close listener and dispatch switches. Made once per channel; the {@link AsynchChannel} is its view
 * and delegates to it. Only this package reads or writes these fields: the per-direction rules are
 * {@link ChannelDirection}'s, the close sequence {@link ChannelClosing}'s, the starts {@link OperationStarter}'s.
 *
 * <p>Thread-safety: as {@link AsynchChannel}'s; the close listener is guarded by this object's monitor.
 */
public final class ChannelCore {

    /** Makes the public operation object of a kind, with its slot (a free list was empty). */
    @FunctionalInterface
    public interface OpFactory {
        /** A new operation of {@code kind} on {@code channel}, as its slot. */
        ChannelSlot newSlot(AsynchChannel channel, OpKind kind);
    }

    /** A processor, the engine's state of a channel registered with it, and what the channel is. */
    public record Registration(Processor processor, EngineChannel channel, ChannelType type) {
    }

    final AsynchChannel view;
    final DemultiplexorCore demultiplexor;
    final Processor processor;
    private final AsynchHandler handler;
    final EngineChannel engineChannel;
    final ChannelType type;
    private final OpFactory ops;

    final ChannelDirection input = new ChannelDirection("input");
    final ChannelDirection output = new ChannelDirection("output");

    /** Set once by {@link #close()}. */
    final AtomicBoolean closed = new AtomicBoolean();
    /** See {@link AsynchChannel#setCompletionsAtStart}. */
    volatile boolean completionsAtStart;
    /** See {@link AsynchChannel#setChainedCallbacks}. */
    volatile boolean chainedCallbacks;
    /** See {@link AsynchChannel#setOverlappingCallbacks}. */
    volatile boolean overlappingCallbacks;
    /** Run once by the closing thread; guarded by {@code this} (see {@link #whenClosed}). */
    Runnable closeListener;

    /**
     * The state of {@code view}, registered as {@code registration} with a processor of {@code demultiplexor};
     * with {@code track}, closed with the demultiplexor.
     *
     * @throws NullPointerException if {@code handler} is null
     */
    public ChannelCore(AsynchChannel view, DemultiplexorCore demultiplexor, AsynchHandler handler,
                       Registration registration, OpFactory ops, boolean track) {
        this.view = view;
        this.demultiplexor = demultiplexor;
        this.handler = Objects.requireNonNull(handler, "handler");
        this.processor = registration.processor();
        this.engineChannel = registration.channel();
        this.type = registration.type();
        this.ops = ops;
        this.chainedCallbacks = type.chainedByDefault();
        if (track) {
            demultiplexor.track(this);
        }
    }

    /** Closes this channel once {@code wrapped}, the JDK channel it wraps, is found closed directly. */
    public void watch(Channel wrapped) {
        ClosedChannelWatch.watch(this, wrapped);
    }

    /** A new operation object of {@code kind} for this channel, as its slot. */
    ChannelSlot newOp(OpKind kind) {
        return ops.newSlot(view, kind);
    }

    /** The counters of the input or output direction. */
    public IoCounts counters(boolean inputDirection) {
        return (inputDirection ? input : output).counters;
    }

    /** See {@link AsynchChannel#setCompletionsAtStart}. */
    public void setCompletionsAtStart(boolean on) {
        completionsAtStart = on;
    }

    /** See {@link AsynchChannel#setChainedCallbacks}. */
    public void setChainedCallbacks(boolean on) {
        chainedCallbacks = on;
    }

    /** See {@link AsynchChannel#setOverlappingCallbacks}. */
    public void setOverlappingCallbacks(boolean on) {
        overlappingCallbacks = on;
    }

    /** See {@link AsynchChannel#awaitNextOperation}. */
    public void awaitNextOperation(boolean inputDirection) {
        (inputDirection ? input : output).awaitNext();
    }

    /** The engine's side of this channel. */
    public EngineChannel engineChannel() {
        return engineChannel;
    }

    /** The processor running this channel. */
    public Processor processor() {
        return processor;
    }

    /** The input direction. */
    public ChannelDirection input() {
        return input;
    }

    /** The output direction. */
    public ChannelDirection output() {
        return output;
    }

    /** The handler of this channel's completions. */
    public AsynchHandler handler() {
        return handler;
    }

    // ---------------------------------------------------------------- what AsynchChannel delegates

    /** See {@link AsynchChannel#size()}. */
    public long size() throws IOException {
        if (type != ChannelType.FILE) {
            throw new UnsupportedOperationException("size() needs a file channel; this is a " + type);
        }
        return engineChannel.size();
    }

    /** See {@link AsynchChannel#setOption}. */
    public <T> void setOption(SocketOption<T> name, T value) throws IOException {
        Objects.requireNonNull(name, "name");
        checkNotClosed();
        engineChannel.setOption(name, value);
    }

    /** See {@link AsynchChannel#getOption}. */
    public <T> T getOption(SocketOption<T> name) throws IOException {
        Objects.requireNonNull(name, "name");
        checkNotClosed();
        return engineChannel.getOption(name);
    }

    /** See {@link AsynchChannel#shutdownOutput()}. */
    public void shutdownOutput() throws IOException {
        checkNotClosed();
        engineChannel.shutdownOutput();
    }

    /** See {@link AsynchChannel#shutdownInput()}. */
    public void shutdownInput() throws IOException {
        checkNotClosed();
        engineChannel.shutdownInput();
    }

    private void checkNotClosed() throws ClosedChannelException {
        if (closed.get()) {
            throw new ClosedChannelException();
        }
    }

    /** Whether {@link #close()} has not been called. */
    public boolean isOpen() {
        return !closed.get();
    }

    /** See {@link AsynchChannel#getLocalAddress()}. */
    public SocketAddress localAddress() throws IOException {
        return engineChannel.localAddress();
    }

    /** See {@link AsynchChannel#getRemoteAddress()}. */
    public SocketAddress remoteAddress() throws IOException {
        return engineChannel.remoteAddress();
    }

    /** See {@link AsynchChannel#cancel()}. */
    public void cancel() {
        ChannelClosing.abortAll(this, false);
    }

    /** See {@link AsynchChannel#close()}. */
    public void close() {
        ChannelClosing.close(this);
    }

    /** See {@link AsynchChannel#whenClosed}. */
    public void whenClosed(Runnable listener) {
        ChannelClosing.whenClosed(this, listener);
    }

    // ---------------------------------------------------------------- timeouts and dispatch

    /**
     * The timeout armed for use {@code use} of {@code op} fired (timer callback): marks the operation with
     * {@link InterruptedByTimeoutException} if that use is still unfinished, and takes it back from the engine
     * as a cancel would. Only this operation is affected; the others of the channel go on.
     */
    void timeOut(ChannelSlot op, int use) {
        ChannelDirection.Marked marked = op.direction.timeOut(op, use, new InterruptedByTimeoutException());
        if (marked != null) {
            marked.cancel(processor);
        }
    }

    /** Calls the handler with the completed operation (the dispatcher's thread, no lock held). */
    void dispatch(ChannelSlot op) throws Exception {
        switch (op.getKind()) {
            case READ, READ_FILE -> handler.onReadCompleted((OpRead) op.view());
            case WRITE, WRITE_FILE -> handler.onWriteCompleted((OpWrite) op.view());
            case ACCEPT -> handler.onAcceptCompleted((OpAccept) op.view());
            case CONNECT -> handler.onConnectCompleted((OpConnect) op.view());
            case RECEIVE -> handler.onReceiveCompleted((OpReceive) op.view());
            case SEND -> handler.onSendCompleted((OpSend) op.view());
            case TRANSMIT_FILE -> handler.onTransmitCompleted((OpTransmit) op.view());
        }
    }

    void onHandlerFailure(ChannelSlot op, Throwable failure) {
        Dispatcher.LOG.error("handler {} failed in {} completion; closing {}", handler, op.getKind(), this, failure);
        close();
    }

    /** The text of {@link AsynchChannel#toString()}. */
    @Override
    public String toString() {
        return "AsynchChannel[" + type + " " + engineChannel + (closed.get() ? ", closed" : "") + "]";
    }
}
