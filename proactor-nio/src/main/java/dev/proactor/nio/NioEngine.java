package dev.proactor.nio;

import dev.proactor.spi.Engine;
import dev.proactor.spi.EngineChannel;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.OpKind;
import dev.proactor.spi.StartResult;
import dev.proactor.spi.WaitStrategy;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.ProtocolFamily;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.channels.Channel;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.function.Consumer;

/**
 * The emulated engine: proactive operations over a {@link Selector}. A request is tried once at start; if the
 * socket is not ready, interest is registered and the leader, on readiness, performs the non-blocking call
 * itself and queues the completed request, so handlers only ever see completions.
 *
 * <p>Runs stream sockets (read, write, accept, connect, and file transmission to a socket), and datagram
 * sockets (receive, send). Not files: a selector cannot wait for them, so the demultiplexor runs file reads and
 * writes on its file engine.
 *
 * <p>Level-triggered rule: interest is removed (under the channel lock) before a completed request leaves the
 * engine, so it can never be reported twice.
 */
final class NioEngine implements Engine {

    private final NioSelector selector;
    private final WaitStrategy waitStrategy;
    /** Requests completed on readiness by the leader; only the leader touches it. */
    private final ArrayDeque<IoRequest> completed = new ArrayDeque<>(256);

    NioEngine(Selector selector, WaitStrategyFactory factory) {
        this.selector = new NioSelector(selector);
        Consumer<SelectionKey> onReady = this::onReady; // built once: select(Consumer) then allocates nothing
        this.waitStrategy = factory.create(this.selector, onReady, completed);
    }

    /** Makes the wait strategy of an engine once the engine's readiness callbacks exist. */
    interface WaitStrategyFactory {
        /**
         * @param selector     to select with (and wake)
         * @param onReady      handles one selected key
         * @param completed    where {@code onReady} queues the requests it finished
         */
        WaitStrategy create(NioSelector selector, Consumer<SelectionKey> onReady, ArrayDeque<IoRequest> completed);
    }

    @Override
    public String name() {
        return NioEngineProvider.NAME;
    }

    @Override
    public WaitStrategy waitStrategy() {
        return waitStrategy;
    }

    @Override
    public boolean supports(OpKind kind) {
        return (SUPPORTED & kind.bit()) != 0;
    }

    private static final int SUPPORTED = OpKind.STREAM_MASK | OpKind.DATAGRAM_MASK | OpKind.TRANSMIT_FILE.bit();

    /** No: {@link #start} says per request whether it added interest a blocked select() cannot see. */
    @Override
    public boolean startInterruptsLeader() {
        return false;
    }

    // ---------------------------------------------------------------- channels

    @Override
    public EngineChannel register(Channel channel) throws IOException {
        if (!(channel instanceof SocketChannel) && !(channel instanceof ServerSocketChannel)
                && !(channel instanceof DatagramChannel)) {
            throw new IllegalArgumentException("the nio engine runs SocketChannel, ServerSocketChannel and "
                    + "DatagramChannel, not " + (channel == null ? "null" : channel.getClass().getName()));
        }
        SelectableChannel sc = (SelectableChannel) channel;
        sc.configureBlocking(false);
        SelectionKey key = selector.register(sc);
        NioChannel nc = new NioChannel(sc, key, selector);
        key.attach(nc);
        return nc;
    }

    @Override
    public EngineChannel openSocket(SocketAddress remoteHint) throws IOException {
        SocketChannel sc = SocketChannel.open();
        return registerOrClose(sc);
    }

    @Override
    public EngineChannel openServer(SocketAddress local, int backlog) throws IOException {
        ServerSocketChannel ssc = ServerSocketChannel.open();
        try {
            ssc.bind(local, backlog);
        } catch (IOException | RuntimeException e) {
            ssc.close();
            throw e;
        }
        return registerOrClose(ssc);
    }

    /** Opens a datagram socket of the address's family (the JDK's default for a wildcard) bound to {@code local}. */
    @Override
    public EngineChannel openDatagram(SocketAddress local) throws IOException {
        ProtocolFamily family = null;
        if (local instanceof InetSocketAddress isa) {
            if (isa.getAddress() instanceof Inet4Address) {
                family = StandardProtocolFamily.INET;
            } else if (isa.getAddress() instanceof Inet6Address) {
                family = StandardProtocolFamily.INET6;
            }
        }
        DatagramChannel dc = family == null ? DatagramChannel.open() : DatagramChannel.open(family);
        try {
            dc.bind(local);
        } catch (IOException | RuntimeException e) {
            dc.close();
            throw e;
        }
        return registerOrClose(dc);
    }

    private EngineChannel registerOrClose(SelectableChannel ch) throws IOException {
        try {
            return register(ch);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    @Override
    public EngineChannel adopt(Object acceptedHandle) throws IOException {
        return register((SocketChannel) acceptedHandle);
    }

    @Override
    public void discard(Object acceptedHandle) {
        try {
            ((SocketChannel) acceptedHandle).close();
        } catch (IOException e) {
            // Closing a socket nobody adopted: nothing more can be done with the error.
        }
    }

    // ---------------------------------------------------------------- requests

    @Override
    public StartResult start(IoRequest r) {
        NioChannel nc = (NioChannel) r.channel();
        synchronized (nc) {
            if (nc.closed) {
                r.fail(new ClosedChannelException());
                return StartResult.COMPLETED;
            }
            try {
                // A stream read on a watched socket its last read drained, with no readiness since, waits for
                // readiness: trying it now would make a system call that finds nothing (see NioChannel.inputDrained),
                // unless a thread blocks for it: then no thread may be left to select (IoRequest.awaited).
                boolean waitForReadiness = r.kind() == OpKind.READ && nc.inputDrained && !r.awaited()
                        && nc.watchesInput();
                if (!waitForReadiness && tryOnce(nc, r)) {
                    return StartResult.COMPLETED;
                }
            } catch (IOException | RuntimeException e) {
                r.fail(e);
                return StartResult.COMPLETED;
            }
            if (r.kind().isInput()) {
                nc.input = r;
            } else {
                nc.output = r;
            }
            // A read after a read usually finds its (sticky) interest registered: no wake-up of the leader then.
            return nc.addInterest(NioOperations.interestOf(r.kind())) ? StartResult.PENDING_INTERRUPT
                    : StartResult.PENDING;
        }
    }

    @Override
    public boolean cancel(IoRequest r, Throwable reason) {
        NioChannel nc = (NioChannel) r.channel();
        if (nc == null) {
            return false;
        }
        synchronized (nc) {
            if (nc.input == r) {
                nc.input = null;
            } else if (nc.output == r) {
                nc.output = null;
            } else {
                return false; // already completed (queued for dispatch) or never pending
            }
            nc.removeInterest(NioOperations.interestOf(r.kind()));
            r.fail(reason);
            return true;
        }
    }

    /**
     * {@link NioOperations#tryOnce}, noting for a stream read whether it drained the socket (read nothing, or
     * fewer bytes than asked for; an end of stream or an error is not "drained"). Lock held.
     */
    private boolean tryOnce(NioChannel nc, IoRequest r) throws IOException {
        if (r.kind() != OpKind.READ) {
            return NioOperations.tryOnce(nc, r);
        }
        long asked = HeapSlices.space(r.buffers(), r.offset(), r.length());
        boolean done = NioOperations.tryOnce(nc, r);
        boolean drained = !done || (r.error() == null && r.bytes() > 0 && r.bytes() < asked);
        nc.inputDrained = drained;
        return done;
    }

    /** Readiness of one key, in the leader during select: perform the pending calls and queue what finished. */
    private void onReady(SelectionKey key) {
        NioChannel nc = (NioChannel) key.attachment();
        synchronized (nc) {
            // A channel closed by another thread has a cancelled key whose readyOps() would throw; its pending
            // requests are collected by the core's cancel.
            if (nc.closed || !key.isValid()) {
                return;
            }
            int ready = key.readyOps();
            int inputReady = ready & (SelectionKey.OP_READ | SelectionKey.OP_ACCEPT);
            if (inputReady != 0) {
                nc.inputDrained = false; // bytes, an end of stream or an error are there
                if (nc.input == null) {
                    nc.removeInterest(inputReady); // sticky input interest no request waits for any more
                } else if (step(nc, nc.input)) {
                    nc.input = null;
                }
            }
            if ((ready & (SelectionKey.OP_WRITE | SelectionKey.OP_CONNECT)) != 0 && nc.output != null
                    && step(nc, nc.output)) {
                nc.output = null;
            }
        }
    }

    /**
     * Tries a pending request; if it finished, queues it. Lock held.
     *
     * <p>Output interest (write, connect) is removed at once: a socket is nearly always writable, so leaving it
     * would wake the leader for nothing. Input interest (read, accept, receive) is left registered: the next
     * input request usually follows within one callback, and keeping the interest saves the two
     * {@code epoll_ctl} calls per message that removing and adding it again would cost. Nothing is completed
     * twice, because a readiness event completes only the request in the channel's slot; readiness with an
     * empty slot removes the interest then ({@link #onReady}).
     */
    private boolean step(NioChannel nc, IoRequest r) {
        boolean done;
        try {
            done = tryOnce(nc, r);
        } catch (IOException | RuntimeException e) {
            r.fail(e);
            done = true;
        }
        if (done) {
            if (!r.kind().isInput()) {
                nc.removeInterest(NioOperations.interestOf(r.kind()));
            }
            completed.add(r);
        }
        return done;
    }

    @Override
    public void close() throws IOException {
        selector.close();
    }
}
