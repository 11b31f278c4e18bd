package dev.proactor.conformance;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.Demultiplexor;
import dev.proactor.OpAccept;
import dev.proactor.OpRead;
import dev.proactor.OpWrite;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Supplier;

/** A listening proactor channel on loopback that adopts each connection with a fresh handler. */
final class TestServer implements AsynchHandler, AutoCloseable {

    private final Supplier<? extends ConnectionHandler> handlers;
    private final AsynchChannel listener;
    /** The accepted channels, in accept order. */
    final Queue<AsynchChannel> accepted = new ConcurrentLinkedQueue<>();
    /** Accept errors other than the one at close. */
    final Queue<Throwable> acceptErrors = new ConcurrentLinkedQueue<>();

    TestServer(Demultiplexor demux, Supplier<? extends ConnectionHandler> handlers) throws IOException {
        this.handlers = handlers;
        this.listener = AsynchChannel.openServer(demux, this,
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 2048);
        listener.accept();
    }

    InetSocketAddress address() throws IOException {
        return (InetSocketAddress) listener.getLocalAddress();
    }

    @Override
    public void onAcceptCompleted(OpAccept op) throws IOException {
        if (!op.isSuccess()) {
            if (listener.isOpen()) {
                acceptErrors.add(op.getError());
                listener.accept();
            }
            return;
        }
        ConnectionHandler h = handlers.get();
        AsynchChannel ch = op.adopt(h);
        accepted.add(ch);
        h.start(ch);
        listener.accept();
    }

    @Override
    public void onReadCompleted(OpRead op) {
        throw new AssertionError("listener read");
    }

    @Override
    public void onWriteCompleted(OpWrite op) {
        throw new AssertionError("listener write");
    }

    @Override
    public void close() {
        listener.close();
    }
}
