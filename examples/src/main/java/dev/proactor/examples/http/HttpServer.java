package dev.proactor.examples.http;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.Demultiplexor;
import dev.proactor.OpAccept;
import dev.proactor.OpRead;
import dev.proactor.OpTimer;
import dev.proactor.OpWrite;
import dev.proactor.ProactorConfig;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedChannelException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A static-file HTTP/1.1 server on the proactor (the seed's JAWS structure): this class is the acceptor, which
 * keeps one accept pending and gives every accepted connection an {@link HttpConnection} (the protocol
 * handler); files are resolved under the document root by a {@link StaticFileResolver} and sent with
 * {@code transmitFile}.
 *
 * <p>Serves GET and HEAD of regular files (a directory serves its {@code index.html}), with keep-alive,
 * pipelining, {@code Last-Modified}/{@code If-Modified-Since}, and no request bodies. See
 * {@link HttpRequestParser} for the error statuses of malformed requests.
 *
 * <p><b>Connection limit.</b> At most {@link Config#maxConnections()} connections are served at once. A
 * connection beyond it is still accepted, answered {@code 503 Service Unavailable} with {@code Retry-After: 1}
 * and closed, rather than left in the listen backlog: the client learns at once that the server is busy instead
 * of waiting on a connection nobody reads. (Those short-lived connections are counted by
 * {@link #openConnections()} while they last, not against the limit.)
 *
 * <p><b>Timeouts</b> (one reusable timer per connection): the idle timeout closes a connection that sends no
 * request, bounds each write while responding, and closes a connection whose file body made no progress for
 * that long (a slow but steady reader is served to the end; see {@link HttpConnection}); the header timeout
 * bounds the time from the first byte of a request to the end of its head and is answered {@code 408}. The idle
 * timeout also sizes each connection's file chunks and send buffer ({@code SO_SNDBUF}).
 *
 * <p><b>Stopping.</b> {@link #close()} closes the listener and every connection and stops the demultiplexor at
 * once. {@link #shutdown(Duration)} is the graceful form (the command's SIGTERM): it stops accepting, closes
 * idle connections at once, lets responses in flight finish within a grace period, then closes.
 *
 * <p>Thread-safe.
 */
public final class HttpServer implements AsynchHandler, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(HttpServer.class);
    private static final long ACCEPT_RETRY_MILLIS = 100;

    /**
     * What to serve and the limits.
     *
     * @param bind                address to listen on (port 0 picks a free port)
     * @param root                document root; must be a directory
     * @param maxConnections      connections served at once; more are answered 503
     * @param idleTimeoutMillis   longest wait for a request on an open connection, for each write, and without
     *                            progress while sending a file
     * @param headerTimeoutMillis longest time from the first byte of a request to the end of its head
     * @param maxRequestLineBytes longest request line (longer: 414)
     * @param maxHeadBytes        largest request head (larger: 431); also each connection's buffer size
     * @param maxHeaderCount      most header fields (more: 431)
     */
    public record Config(InetSocketAddress bind, Path root, int maxConnections, long idleTimeoutMillis,
                         long headerTimeoutMillis, int maxRequestLineBytes, int maxHeadBytes, int maxHeaderCount) {

        /** Validates every field. */
        public Config {
            Objects.requireNonNull(bind, "bind");
            Objects.requireNonNull(root, "root");
            positive("maxConnections", maxConnections);
            positive("idleTimeoutMillis", idleTimeoutMillis);
            positive("headerTimeoutMillis", headerTimeoutMillis);
            positive("maxHeaderCount", maxHeaderCount);
            if (maxRequestLineBytes < 16 || maxHeadBytes < maxRequestLineBytes + 2) {
                throw new IllegalArgumentException("need maxRequestLineBytes >= 16 and maxHeadBytes > it: "
                        + maxRequestLineBytes + ", " + maxHeadBytes);
            }
        }

        /**
         * The defaults: 1000 connections, 30 s idle and 10 s header timeouts, 8 KiB request line, 16 KiB head,
         * 100 header fields.
         */
        public static Config defaults(InetSocketAddress bind, Path root) {
            return new Config(bind, root, 1000, 30_000, 10_000, 8 * 1024, 16 * 1024, 100);
        }

        /** A copy with another connection limit. */
        public Config withMaxConnections(int n) {
            return new Config(bind, root, n, idleTimeoutMillis, headerTimeoutMillis, maxRequestLineBytes,
                    maxHeadBytes, maxHeaderCount);
        }

        /** A copy with another idle timeout. */
        public Config withIdleTimeoutMillis(long ms) {
            return new Config(bind, root, maxConnections, ms, headerTimeoutMillis, maxRequestLineBytes,
                    maxHeadBytes, maxHeaderCount);
        }

        /** A copy with another header timeout. */
        public Config withHeaderTimeoutMillis(long ms) {
            return new Config(bind, root, maxConnections, idleTimeoutMillis, ms, maxRequestLineBytes,
                    maxHeadBytes, maxHeaderCount);
        }

        /** A copy with other request-size limits (request line, whole head, header count). */
        public Config withLimits(int requestLineBytes, int headBytes, int headerCount) {
            return new Config(bind, root, maxConnections, idleTimeoutMillis, headerTimeoutMillis, requestLineBytes,
                    headBytes, headerCount);
        }

        private static void positive(String name, long value) {
            if (value < 1) {
                throw new IllegalArgumentException(name + " must be at least 1, was " + value);
            }
        }
    }

    private final Config config;
    private final StaticFileResolver resolver;
    private final long sendChunk;
    private final Demultiplexor demultiplexor;
    private final AsynchChannel listener;
    private final OpTimer acceptRetry;
    private final AtomicInteger admitted = new AtomicInteger();
    private final AtomicInteger rejecting = new AtomicInteger();
    private final AtomicLong rejected = new AtomicLong();
    private final Set<HttpConnection> connections = ConcurrentHashMap.newKeySet();
    private final Object drained = new Object();
    private volatile boolean closed;
    private volatile boolean draining;
    /** Serves HTTPS with this context ({@link TlsTransport}), or plain HTTP when null. */
    private final SSLContext tls;

    /**
     * Resolves the root, opens the demultiplexor, binds, starts the pool and the first accept.
     *
     * @throws IOException              if the root cannot be resolved or the address cannot be bound
     * @throws IllegalArgumentException if the root is not a directory, or the proactor configuration is invalid
     */
    public HttpServer(ProactorConfig proactor, Config config) throws IOException {
        this(proactor, config, null);
    }

    /** As {@link #HttpServer(ProactorConfig, Config)}, serving HTTPS with {@code tls} (e.g. from {@link PemTls}). */
    public HttpServer(ProactorConfig proactor, Config config, SSLContext tls) throws IOException {
        this.tls = tls;
        this.config = Objects.requireNonNull(config, "config");
        this.resolver = new StaticFileResolver(config.root());
        this.sendChunk = HttpConnection.sendChunk(config.idleTimeoutMillis());
        this.demultiplexor = Demultiplexor.open(proactor);
        try {
            this.listener = AsynchChannel.openServer(demultiplexor, this, config.bind(), 1024);
        } catch (IOException | RuntimeException e) {
            demultiplexor.close();
            throw e;
        }
        this.acceptRetry = demultiplexor.newTimer(this);
        demultiplexor.start();
        listener.accept();
    }

    /** The bound address (with the real port when 0 was asked). */
    public InetSocketAddress localAddress() throws IOException {
        return (InetSocketAddress) listener.getLocalAddress();
    }

    /** The document root with every symbolic link resolved. */
    public Path root() {
        return resolver.root();
    }

    /** The demultiplexor serving the listener and every connection. */
    public Demultiplexor demultiplexor() {
        return demultiplexor;
    }

    /** The configuration the server was started with. */
    public Config config() {
        return config;
    }

    /** Connections open now: those being served plus those being told 503. */
    public int openConnections() {
        return admitted.get() + rejecting.get();
    }

    /** Connections answered 503 since the start. */
    public long rejectedConnections() {
        return rejected.get();
    }

    StaticFileResolver resolver() {
        return resolver;
    }

    /** File bytes per {@code transmitFile} of a response body (see {@link HttpConnection#sendChunk(long)}). */
    long sendChunk() {
        return sendChunk;
    }

    /** Called exactly once by each connection when it closes. */
    void connectionClosed(boolean wasAdmitted) {
        (wasAdmitted ? admitted : rejecting).decrementAndGet();
        synchronized (drained) {
            drained.notifyAll();
        }
    }

    /** Called by a connection when it starts serving, so that {@link #shutdown} can reach it. */
    void connectionStarted(HttpConnection connection) {
        connections.add(connection);
    }

    /** Called by a connection when it closes (after {@link #connectionStarted}). */
    void connectionEnded(HttpConnection connection) {
        connections.remove(connection);
    }

    /** Whether {@link #shutdown} has begun: connections finish their current response and close. */
    boolean draining() {
        return draining;
    }

    @Override
    public void onAcceptCompleted(OpAccept op) {
        Throwable error = op.getError();
        if (closed || error instanceof ClosedChannelException || error instanceof AsynchronousCloseException) {
            return; // shutting down
        }
        if (error != null) {
            // E.g. EMFILE: accepting again at once would spin; give closing connections time to free slots.
            LOG.warn("accept failed; accepting again in {} ms", ACCEPT_RETRY_MILLIS, error);
            acceptRetry.schedule(ACCEPT_RETRY_MILLIS, TimeUnit.MILLISECONDS);
            return;
        }
        // Never throw from here: a throwing handler gets its channel closed, which would end accepting.
        try {
            boolean admit = admit();
            HttpConnection conn = new HttpConnection(this, admit);
            AsynchChannel ch;
            HttpTransport transport;
            try {
                if (tls == null) {
                    ch = op.adopt(conn);
                    transport = new PlainTransport(ch);
                } else {
                    TlsTransport t = new TlsTransport(op, tls, conn);
                    ch = t.socket();
                    transport = t;
                }
                // A response head and a small body are separate writes: without this, Nagle's algorithm holds
                // the second until the client's delayed ACK (tens of milliseconds per keep-alive request).
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                // A send buffer sized from the idle timeout instead of autotuned (up to 4 MiB): the kernel wakes
                // a writer only when a third of it is free, so this bounds how much a slow reader must drain
                // before the next transmit can complete and count as progress (see HttpConnection).
                ch.setOption(StandardSocketOptions.SO_SNDBUF, (int) sendChunk);
            } catch (IOException e) {
                LOG.warn("could not register an accepted connection", e);
                connectionClosed(admit);
                return;
            }
            if (!admit) {
                rejected.incrementAndGet();
            }
            conn.start(transport);
        } finally {
            listener.accept();
        }
    }

    /** Takes a slot below the limit, or counts the connection as one being rejected. */
    private boolean admit() {
        int max = config.maxConnections();
        for (int n = admitted.get(); n < max; n = admitted.get()) {
            if (admitted.compareAndSet(n, n + 1)) {
                return true;
            }
        }
        rejecting.incrementAndGet();
        return false;
    }

    @Override
    public void onTimerCompleted(OpTimer op) {
        if (!closed) {
            listener.accept();
        }
    }

    @Override
    public void onReadCompleted(OpRead op) {
        throw new IllegalStateException("the listener does not read");
    }

    @Override
    public void onWriteCompleted(OpWrite op) {
        throw new IllegalStateException("the listener does not write");
    }

    /**
     * Stops gracefully: stops accepting, closes idle connections at once, lets each response in flight finish
     * (the connection closes after it), and closes whatever is left when {@code grace} has passed. Returns when
     * the server is closed. Called from any thread except a pool thread (it blocks).
     */
    public void shutdown(Duration grace) throws InterruptedException {
        draining = true;
        closed = true;
        listener.close();
        for (HttpConnection c : connections) {
            c.drain();
        }
        long deadline = System.nanoTime() + grace.toNanos();
        synchronized (drained) {
            for (long left = grace.toNanos(); openConnections() > 0 && left > 0;
                 left = deadline - System.nanoTime()) {
                TimeUnit.NANOSECONDS.timedWait(drained, left);
            }
        }
        close();
    }

    /** Stops accepting, closes every connection (their files are closed as their operations complete). */
    @Override
    public void close() {
        closed = true;
        listener.close();
        demultiplexor.close();
    }
}
