package dev.proactor.toolkit;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.Demultiplexor;
import dev.proactor.OpAccept;
import dev.proactor.OpRead;
import dev.proactor.OpTimer;
import dev.proactor.OpWrite;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Listens on an address and starts a {@link Service} for every connection, keeping several accepts posted so a
 * burst of connections finds the next accept already waiting:
 * <pre>{@code
 * Acceptor acceptor = Acceptor.builder(demux, new InetSocketAddress(7000), Echo::new)
 *         .pendingAccepts(4).maxConnections(10_000).open();
 * ...
 * acceptor.close();   // stops accepting, frees the port; open connections go on
 * }</pre>
 *
 * <p><b>Pending accepts.</b> Each listener keeps {@link Builder#pendingAccepts(int) N} accepts posted (default
 * 4). The accepts of one listener complete one after another (one direction of a channel), but the next is
 * already waiting when a callback returns, and while the connection limit is not reached no accept is ever
 * missing. With {@link Builder#listeners(int) listeners(n)} above 1, n sockets bind the same address with
 * {@code SO_REUSEPORT} and the kernel spreads connections over them, so several threads accept at once.
 *
 * <p><b>Connection limit.</b> At most {@link Builder#maxConnections(int) maxConnections} connections are open
 * at once (accepted and not yet closed): accepts are posted only while {@code open + posted} stays within it,
 * and one more is posted each time a connection closes. Connections over the limit wait in the listen backlog,
 * unless {@link Builder#rejectWith(ServiceFactory) rejectWith} is set: then accepts stay posted at the limit too,
 * and each connection beyond it is served by a service of that second factory, which tells the client the
 * server is busy and closes (HTTP {@code 503}, SMTP {@code 421}), so the client learns it at once instead of
 * waiting on a connection nobody reads. Those connections are not counted against the limit, and not limited
 * (a service that closes promptly keeps them few; running out of descriptors is an accept error, below).
 *
 * <p><b>Adoption.</b> Each accepted connection is taken with {@link Service#adopt}: by default the service
 * becomes the socket's handler; a service that runs a layer such as TLS over the socket lets the layer adopt
 * it.
 *
 * <p><b>Errors.</b> A failing accept (e.g. out of file descriptors) is logged and retried after 100 ms on the
 * demultiplexor's timer queue, so it never spins. A factory, {@link Service#adopt} or {@link Service#start} that
 * throws is logged and the connection closed; accepting goes on.
 *
 * <p><b>Threads.</b> Services are made and started on demultiplexor threads. {@link #close()} from any thread.
 */
public final class Acceptor implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Acceptor.class);
    private static final long RETRY_MILLIS = 100;

    /**
     * The default listen backlog: the most any system allows. The kernel caps a listen backlog at its own limit
     * (Linux: {@code net.core.somaxconn}, 4 096 by default), so this asks for that limit wherever the server runs.
     */
    public static final int MAX_BACKLOG = Integer.MAX_VALUE;

    private final Demultiplexor demultiplexor;
    private final ServiceFactory factory;
    /** Serves connections beyond the limit; null: they wait in the backlog. */
    private final ServiceFactory rejectFactory;
    private final int pendingAccepts;
    private final int maxConnections;
    private final List<Listener> listeners = new ArrayList<>();
    private final InetSocketAddress localAddress;

    // Counted under `this`: accepts are rare next to I/O, and the limit needs open + posted as one value.
    private int openConnections;
    private int rejectingConnections;
    private long rejectedConnections;
    private int postedAccepts;
    private boolean closed;

    private Acceptor(Builder b) throws IOException {
        this.demultiplexor = b.demultiplexor;
        this.factory = b.factory;
        this.rejectFactory = b.rejectFactory;
        this.pendingAccepts = b.pendingAccepts;
        this.maxConnections = b.maxConnections;
        try {
            if (b.listeners == 1) {
                Listener l = new Listener();
                l.channel = AsynchChannel.openServer(demultiplexor, l, b.address, b.backlog);
                listeners.add(l);
            } else {
                InetSocketAddress at = b.address;
                for (int i = 0; i < b.listeners; i++) {
                    Listener l = new Listener();
                    ServerSocketChannel server = ServerSocketChannel.open();
                    try {
                        server.setOption(StandardSocketOptions.SO_REUSEPORT, true);
                        server.bind(at, b.backlog);
                    } catch (IOException | RuntimeException e) {
                        server.close();
                        throw e;
                    }
                    at = (InetSocketAddress) server.getLocalAddress(); // the others take the port the first got
                    l.channel = new AsynchChannel(demultiplexor, l, server);
                    listeners.add(l);
                }
            }
            this.localAddress = (InetSocketAddress) listeners.get(0).channel.getLocalAddress();
        } catch (IOException | RuntimeException e) {
            for (Listener l : listeners) {
                l.channel.close();
            }
            throw e;
        }
        for (Listener l : listeners) {
            refill(l);
        }
    }

    /**
     * A builder for an acceptor on {@code address} (port 0 picks a free port) serving each connection with a
     * service from {@code factory}.
     */
    public static Builder builder(Demultiplexor demultiplexor, InetSocketAddress address, ServiceFactory factory) {
        return new Builder(demultiplexor, address, factory);
    }

    /** The bound address (with the real port when 0 was asked). */
    public InetSocketAddress localAddress() {
        return localAddress;
    }

    /** Connections served (counted against the limit) and not yet closed. */
    public synchronized int openConnections() {
        return openConnections;
    }

    /** Connections beyond the limit being served by the {@link Builder#rejectWith reject} service now. */
    public synchronized int rejectingConnections() {
        return rejectingConnections;
    }

    /** Connections handed to the {@link Builder#rejectWith reject} service since the acceptor opened. */
    public synchronized long rejectedConnections() {
        return rejectedConnections;
    }

    /** Accepts posted and not yet completed, over all listeners. */
    public synchronized int postedAccepts() {
        return postedAccepts;
    }

    /** Number of listening sockets (more than one with {@code SO_REUSEPORT}). */
    public int listenerCount() {
        return listeners.size();
    }

    /**
     * Stops accepting: closes the listening sockets (the pending accepts complete and are dropped), so the port
     * is free when this returns and later connection attempts are refused. A connection whose accept completed
     * but was not served yet when this began is closed, never handed to a service. Connections already served
     * are not touched; their services close them. Idempotent.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        for (Listener l : listeners) {
            l.retry.cancel();
            l.channel.close();
        }
    }

    /** Posts accepts on {@code l} up to its share and the connection limit. Any thread. */
    private void refill(Listener l) {
        int post;
        synchronized (this) {
            if (closed) {
                return;
            }
            post = pendingAccepts - l.posted;
            if (rejectFactory == null) {
                post = Math.min(post, maxConnections - openConnections - postedAccepts);
            }
            if (post <= 0) {
                return;
            }
            l.posted += post;
            postedAccepts += post;
        }
        for (int i = 0; i < post; i++) {
            l.channel.accept();
        }
    }

    private void refillAll() {
        for (Listener l : listeners) {
            refill(l);
        }
    }

    /** Frees what {@link #reserve()} took, when the connection closes or was never served. Any thread. */
    private void release(boolean admitted) {
        synchronized (this) {
            if (admitted) {
                openConnections--;
            } else {
                rejectingConnections--;
            }
        }
        if (admitted) {
            refillAll();
        }
    }

    /**
     * Counts a new connection as open if the limit allows (always without a reject factory: an accept is posted
     * only for a free place), else as being rejected. Returns whether it was admitted.
     */
    private synchronized boolean reserve() {
        if (openConnections < maxConnections || rejectFactory == null) {
            openConnections++;
            return true;
        }
        rejectingConnections++;
        rejectedConnections++;
        return false;
    }

    /** Takes a connection: adopts it with a new service, counts it, starts the service. Dispatcher thread. */
    private void serve(OpAccept op) {
        boolean admitted = reserve();
        Service service;
        try {
            ServiceFactory f = admitted ? factory : rejectFactory;
            service = Objects.requireNonNull(f.newService(), "service factory returned null");
        } catch (Exception | Error e) {
            release(admitted);
            LOG.warn("service factory failed; connection from {} closed", op.getRemoteAddress(), e);
            return; // not adopted: the framework closes it after this callback
        }
        AsynchChannel channel;
        try {
            channel = Objects.requireNonNull(service.adopt(op), "Service.adopt returned null");
        } catch (Exception | Error e) {
            release(admitted);
            LOG.warn("could not take the connection from {}", op.getRemoteAddress(), e);
            return;
        }
        channel.whenClosed(() -> release(admitted));
        try {
            service.start(channel);
        } catch (Exception | Error e) {
            LOG.warn("service {} failed to start; closing {}", service, channel, e);
            channel.close();
        }
    }

    /** The handler of one listening socket. */
    private final class Listener implements AsynchHandler {
        AsynchChannel channel;
        /** Accepts posted on this listener; guarded by the acceptor. */
        int posted;
        final OpTimer retry = demultiplexor.newTimer(this);

        @Override
        public void onAcceptCompleted(OpAccept op) {
            boolean closing;
            synchronized (Acceptor.this) {
                posted--;
                postedAccepts--;
                closing = closed;
            }
            Throwable error = op.getError();
            if (closing) {
                return; // accepted while closing: not adopted, so the framework closes it after this callback
            }
            if (error == null) {
                serve(op);
                refill(this);
            } else if (error instanceof AsynchronousCloseException || error instanceof ClosedChannelException) {
                return; // closing
            } else {
                LOG.warn("accept on {} failed; retrying in {} ms", localAddress, RETRY_MILLIS, error);
                try {
                    retry.schedule(RETRY_MILLIS, TimeUnit.MILLISECONDS);
                } catch (IllegalStateException demultiplexorClosed) {
                    // nothing to retry on
                }
            }
        }

        @Override
        public void onTimerCompleted(OpTimer t) {
            refill(this);
        }

        @Override
        public void onReadCompleted(OpRead op) {
            throw new IllegalStateException("a listener does not read");
        }

        @Override
        public void onWriteCompleted(OpWrite op) {
            throw new IllegalStateException("a listener does not write");
        }
    }

    /** Settings of an {@link Acceptor}; {@link #open()} binds and starts accepting. */
    public static final class Builder {
        private final Demultiplexor demultiplexor;
        private final InetSocketAddress address;
        private final ServiceFactory factory;
        private ServiceFactory rejectFactory;
        private int pendingAccepts = 4;
        private int maxConnections = Integer.MAX_VALUE;
        private int listeners = 1;
        private int backlog = MAX_BACKLOG;

        private Builder(Demultiplexor demultiplexor, InetSocketAddress address, ServiceFactory factory) {
            this.demultiplexor = Objects.requireNonNull(demultiplexor, "demultiplexor");
            this.address = Objects.requireNonNull(address, "address");
            this.factory = Objects.requireNonNull(factory, "factory");
        }

        /** Accepts kept posted per listener (default 4). @throws IllegalArgumentException if below 1 */
        public Builder pendingAccepts(int n) {
            this.pendingAccepts = positive("pendingAccepts", n);
            return this;
        }

        /** Most connections open at once (default unlimited). @throws IllegalArgumentException if below 1 */
        public Builder maxConnections(int n) {
            this.maxConnections = positive("maxConnections", n);
            return this;
        }

        /**
         * Accepts connections beyond {@link #maxConnections(int)} too and serves each with a service from
         * {@code factory}, meant to tell the client the server is busy and close (default: none, such
         * connections wait in the listen backlog). They are counted apart ({@link Acceptor#rejectingConnections()},
         * {@link Acceptor#rejectedConnections()}), not against the limit.
         */
        public Builder rejectWith(ServiceFactory factory) {
            this.rejectFactory = Objects.requireNonNull(factory, "factory");
            return this;
        }

        /**
         * Listening sockets on the same address with {@code SO_REUSEPORT} (default 1: one socket, no option).
         * They are JDK {@code ServerSocketChannel}s (the option must be set before binding) wrapped with the
         * seed constructor, so the framework's watch for directly closed JDK channels runs while they are open.
         *
         * @throws IllegalArgumentException if below 1
         */
        public Builder listeners(int n) {
            this.listeners = positive("listeners", n);
            return this;
        }

        /**
         * The listen backlog: how many connections whose handshake completed wait for an accept (default: the most
         * the system allows, {@link Acceptor#MAX_BACKLOG}; 0 for the JDK's default of
         * {@code ServerSocketChannel.bind}, 50). A burst of clients connecting at once overflows a small backlog, and
         * the kernel then drops their handshakes, which the clients retry after a second or more.
         */
        public Builder backlog(int n) {
            if (n < 0) {
                throw new IllegalArgumentException("backlog must be >= 0: " + n);
            }
            this.backlog = n;
            return this;
        }

        /**
         * Binds and posts the first accepts.
         *
         * @throws java.net.BindException        if the address is in use
         * @throws UnsupportedOperationException if {@code listeners > 1} and the platform has no
         *                                       {@code SO_REUSEPORT}
         * @throws IllegalStateException         if the demultiplexor is closed
         */
        public Acceptor open() throws IOException {
            return new Acceptor(this);
        }

        private static int positive(String what, int n) {
            if (n < 1) {
                throw new IllegalArgumentException(what + " must be >= 1: " + n);
            }
            return n;
        }
    }
}
