package dev.proactor.examples.http;

import dev.proactor.AsynchChannel;
import dev.proactor.Demultiplexor;
import dev.proactor.ProactorConfig;
import dev.proactor.toolkit.Acceptor;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;

/**
 * A static-file HTTP/1.1 server on the proactor (the seed's JAWS structure): the toolkit's {@link Acceptor}
 * keeps accepts posted (and retries a failing one) and gives every accepted connection an {@link HttpConnection}
 * (the protocol handler); files are resolved under the document root by a {@link StaticFileResolver} and sent
 * with {@code transmitFile}.
 *
 * <p>Serves GET and HEAD of regular files (a directory serves its {@code index.html}), with keep-alive,
 * pipelining, {@code Last-Modified}/{@code If-Modified-Since}, and no request bodies. See
 * {@link HttpRequestParser} for the error statuses of malformed requests.
 *
 * <p><b>Connection limit.</b> At most {@link Config#maxConnections()} connections are served at once (the
 * acceptor's limit). A connection beyond it is still accepted (the acceptor's {@code rejectWith}), answered
 * {@code 503 Service Unavailable} with {@code Retry-After: 1} and closed, rather than left in the listen
 * backlog: the client learns at once that the server is busy instead of waiting on a connection nobody reads.
 * (Those short-lived connections are counted by {@link #openConnections()} while they last, not against the
 * limit.)
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
public final class HttpServer implements AutoCloseable {

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
    private final Acceptor acceptor;
    private final Set<HttpConnection> connections = ConcurrentHashMap.newKeySet();
    private final Object drained = new Object();
    private volatile boolean draining;
    /** Serves HTTPS with this context ({@link TlsTransport}), or plain HTTP when null. */
    private final SSLContext tls;

    /**
     * Resolves the root, opens the demultiplexor, binds, posts the first accepts and starts the pool.
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
        this.sendChunk = FileBody.sendChunk(config.idleTimeoutMillis());
        this.demultiplexor = Demultiplexor.open(proactor);
        try {
            this.acceptor = Acceptor.builder(demultiplexor, config.bind(), () -> new HttpConnection(this, true))
                    .maxConnections(config.maxConnections())
                    .rejectWith(() -> new HttpConnection(this, false))
                    .open();
        } catch (IOException | RuntimeException e) {
            demultiplexor.close();
            throw e;
        }
        demultiplexor.start();
    }

    /** The bound address (with the real port when 0 was asked). */
    public InetSocketAddress localAddress() {
        return acceptor.localAddress();
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
        return acceptor.openConnections() + acceptor.rejectingConnections();
    }

    /** Connections answered 503 since the start. */
    public long rejectedConnections() {
        return acceptor.rejectedConnections();
    }

    /** The HTTPS context, or null for plain HTTP. */
    SSLContext tls() {
        return tls;
    }

    StaticFileResolver resolver() {
        return resolver;
    }

    /** File bytes per {@code transmitFile} of a response body (see {@link FileBody#sendChunk(long)}). */
    long sendChunk() {
        return sendChunk;
    }

    /**
     * Called by a connection when it starts serving, so that {@link #shutdown} can reach it; it is forgotten
     * when its socket closes (after the acceptor counted the close), and a stopping server hears of it.
     */
    void connectionStarted(HttpConnection connection, AsynchChannel socket) {
        connections.add(connection);
        socket.whenClosed(() -> {
            connections.remove(connection);
            synchronized (drained) {
                drained.notifyAll();
            }
        });
    }

    /** Whether {@link #shutdown} has begun: connections finish their current response and close. */
    boolean draining() {
        return draining;
    }

    /**
     * Stops gracefully: stops accepting, closes idle connections at once, lets each response in flight finish
     * (the connection closes after it), and closes whatever is left when {@code grace} has passed. Returns when
     * the server is closed. Called from any thread except a pool thread (it blocks).
     */
    public void shutdown(Duration grace) throws InterruptedException {
        draining = true;
        acceptor.close();
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
        acceptor.close();
        demultiplexor.close();
    }
}
