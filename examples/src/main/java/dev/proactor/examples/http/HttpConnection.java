package dev.proactor.examples.http;

import dev.proactor.AsynchChannel;
import dev.proactor.OpAccept;
import dev.proactor.OpRead;
import dev.proactor.OpTimer;
import dev.proactor.OpTransmit;
import dev.proactor.OpWrite;
import dev.proactor.toolkit.Service;
import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One HTTP/1.1 connection on the proactor: the JAWS "protocol handler". It reads request heads asynchronously,
 * answers them one after another in arrival order (pipelined requests already in the buffer are answered without
 * reading again), and sends files with {@link dev.proactor.AsynchChannel#transmitFile} behind the response head.
 *
 * <p><b>Phases.</b> {@code IDLE} (waiting for the first byte of a request; idle timeout), {@code HEAD} (a
 * request has begun; the whole head must arrive within the header timeout counted from the first byte, so a
 * slowloris client trickling bytes cannot keep the connection), {@code RESPONDING} (a write or transmit is
 * pending; no read is started, which leaves back-pressure to TCP; a write must complete within the idle
 * timeout, and a file body must make progress: see <i>Sending timeout</i>), {@code LINGERING} (after the last
 * response of a connection that closes: output shut down, input drained and discarded for a short time, so a
 * client whose unread request bytes would otherwise make the close a reset still receives the response),
 * {@code CLOSED}.
 *
 * <p><b>Threads.</b> Input, output and timer completions of one connection may run on different pool threads
 * at the same time; every callback synchronizes on the connection, which keeps the state machine simple. The
 * one reusable timer is never trusted blindly ({@link ConnectionTimer}).
 *
 * <p><b>Responses.</b> What to answer, and the bytes of it, come from a {@link StaticFileResponder}: a whole
 * response to write, or a head to send in front of a file body too large to go inline, which the responder opens
 * into the connection's {@link FileBody} and the connection sends by {@code transmitFile} chunk after chunk.
 *
 * <p><b>Sending timeout.</b> While a file body is sent, the idle timeout measures lack of progress, not time
 * per chunk: the timer is armed once when the body starts, each completed chunk records the time of progress,
 * and when the timer fires it is armed again for the rest of an idle timeout counted from the last progress;
 * only an idle timeout without any completed chunk closes the connection. So a client that reads slowly but
 * steadily gets a body of any size, and one that stops reading is closed an idle timeout after its last
 * progress (the same time a stalled write gets). The chunk size, and the send buffer sized to match, are
 * explained in {@link FileBody}.
 *
 * <p><b>Allocation.</b> Per connection: the request buffer (the head limit), the parser, the request, the
 * responder with its response buffer (head plus a small body), the file body and the timer, all reused for every
 * request. Per request only what the JDK needs: the target string, the resolved {@code Path} and the opened
 * {@code FileChannel}.
 */
final class HttpConnection implements Service {

    private static final Logger LOG = LoggerFactory.getLogger(HttpConnection.class);

    /** Longest time input is drained before a closing connection is closed (capped by the idle timeout). */
    static final long LINGER_MILLIS = 2_000;

    private enum Phase { IDLE, HEAD, RESPONDING, LINGERING, CLOSED }

    private final HttpServer server;
    private final HttpServer.Config config;
    private final boolean admitted;
    private final ByteBuffer in;
    private final HttpRequestParser parser;
    private final HttpRequest request = new HttpRequest();
    private final StaticFileResponder responder;
    private final FileBody body;
    private final ConnectionTimer timer;

    private HttpTransport channel;
    private Phase phase = Phase.IDLE;
    private boolean readPending;
    private boolean writePending;
    private boolean closeAfterResponse;

    /**
     * @param admitted {@code false} for a connection over the limit: it is only told {@code 503} and closed
     */
    HttpConnection(HttpServer server, boolean admitted) {
        this.server = server;
        this.config = server.config();
        this.admitted = admitted;
        this.parser = new HttpRequestParser(config.maxRequestLineBytes(), config.maxHeadBytes(),
                config.maxHeaderCount());
        // Heap buffer: the parser turns the target into a String straight from its array. Admitted connections
        // only: a rejected one reads solely to drain, for which a small buffer does.
        this.in = ByteBuffer.allocate(admitted ? config.maxHeadBytes() : 512);
        this.responder = new StaticFileResponder(server.resolver(), admitted);
        this.body = new FileBody(server.sendChunk());
        this.timer = new ConnectionTimer(server.demultiplexor(), this);
    }

    /**
     * Takes the accepted connection (called by the acceptor): plain, this connection is the socket's handler;
     * HTTPS, a {@link TlsTransport} adopts it and starts the handshake.
     */
    @Override
    public AsynchChannel adopt(OpAccept accepted) throws IOException {
        if (server.tls() == null) {
            return accepted.adopt(this);
        }
        TlsTransport t = new TlsTransport(accepted, server.tls(), this);
        channel = t;
        return t.socket();
    }

    /**
     * Starts serving the adopted connection (or, if not admitted, answers 503 and closes). If setting an option
     * fails, the acceptor logs it and closes the socket.
     */
    @Override
    public synchronized void start(AsynchChannel socket) throws IOException {
        if (channel == null) {
            channel = new PlainTransport(socket);
        }
        server.connectionStarted(this, socket);
        // A response head and a small body are separate writes: without this, Nagle's algorithm holds the second
        // until the client's delayed ACK (tens of milliseconds per keep-alive request).
        socket.setOption(StandardSocketOptions.TCP_NODELAY, true);
        // A send buffer sized from the idle timeout instead of autotuned (up to 4 MiB): the kernel wakes a writer
        // only when a third of it is free, so this bounds how much a slow reader must drain before the next
        // transmit can complete and count as progress (see FileBody).
        socket.setOption(StandardSocketOptions.SO_SNDBUF, (int) server.sendChunk());
        if (server.draining()) {
            closeNow(); // accepted while the server began to stop: not served
            return;
        }
        if (!admitted) {
            respondAndClose(503);
            return;
        }
        phase = Phase.IDLE;
        if (arm(config.idleTimeoutMillis())) {
            read();
        }
    }

    // ---------------------------------------------------------------- input

    @Override
    public void onReadCompleted(OpRead op) {
        readCompleted(op.getError(), op.isEndOfStream());
    }

    /** A read of the connection completed (plain or TLS): {@code error}, end-of-stream, or bytes in the buffer. */
    synchronized void readCompleted(Throwable error, boolean endOfStream) {
        readPending = false;
        if (phase == Phase.CLOSED) {
            return;
        }
        if (error != null || endOfStream) {
            if (error != null) {
                LOG.debug("{}: read failed", channel, error);
            }
            closeNow(); // the peer is gone or closed its side: nothing more to answer
            return;
        }
        if (phase == Phase.LINGERING || phase == Phase.RESPONDING) {
            // Only a closing connection reads in these phases (a read left pending by a header timeout, or the
            // drain): the bytes are discarded.
            in.clear();
            read();
            return;
        }
        in.flip();
        if (phase == Phase.IDLE) {
            phase = Phase.HEAD;
            if (!arm(config.headerTimeoutMillis())) {
                return;
            }
        }
        processBuffered();
    }

    /** Parses the next request in the buffer and answers it, or reads more. Buffer in read mode. */
    private void processBuffered() {
        int result = parser.parse(in, request);
        if (result == HttpRequestParser.NEED_MORE) {
            in.compact();
            if (!in.hasRemaining()) {
                // Cannot happen while the buffer holds maxHeadBytes (the parser says 431 before it is full). Not
                // thrown: a throwing handler gets its channel closed behind our back, skipping closeNow().
                LOG.error("{}: request buffer full without a parser verdict (bug); closing", channel);
                closeNow();
                return;
            }
            read();
        } else if (result == HttpRequestParser.COMPLETE) {
            respond();
        } else {
            LOG.debug("{}: {} {}", channel, result, parser.errorDetail());
            respondAndClose(result);
        }
    }

    private void read() {
        readPending = true;
        channel.read(in);
    }

    // ---------------------------------------------------------------- responses

    /** Answers the parsed request: a whole response in one write, or a head with a file body behind it. */
    private void respond() {
        phase = Phase.RESPONDING;
        boolean keepAlive = request.keepAlive() && !server.draining(); // stopping: this is the last response
        closeAfterResponse = !keepAlive;
        ByteBuffer response = responder.respond(request, keepAlive, body, channel);
        if (body.isOpen()) {
            transmitFile(response);
        } else {
            send(response);
        }
    }

    /** Answers an error that leaves the connection unusable (parse error, header timeout) and closes it. */
    private void respondAndClose(int status) {
        phase = Phase.RESPONDING;
        closeAfterResponse = true;
        send(responder.closingError(status));
    }

    private void send(ByteBuffer bytes) {
        if (!arm(config.idleTimeoutMillis())) {
            return;
        }
        writePending = true;
        channel.write(bytes);
    }

    /**
     * Starts sending the file behind {@code head}. The idle timer is armed once for the whole body; each chunk
     * that completes only records progress, and the timer, when it fires, closes the connection only if no chunk
     * completed for a whole idle timeout (see {@link #onTimerCompleted}).
     */
    private void transmitFile(ByteBuffer head) {
        if (arm(config.idleTimeoutMillis())) {
            transmitChunk(head);
        }
    }

    /** Sends the next chunk of the file, behind {@code head} (null after the first chunk). */
    private void transmitChunk(ByteBuffer head) {
        writePending = true;
        channel.transmitFile(body.file(), body.position(), body.nextChunkLength(), head);
    }

    @Override
    public void onWriteCompleted(OpWrite op) {
        writeCompleted(op.getError());
    }

    /** A write of the connection completed (plain or TLS), with {@code error} or all bytes written. */
    synchronized void writeCompleted(Throwable error) {
        writePending = false;
        if (phase == Phase.CLOSED) {
            return;
        }
        if (error != null) {
            LOG.debug("{}: write failed", channel, error);
            closeNow();
            return;
        }
        afterResponse();
    }

    @Override
    public void onTransmitCompleted(OpTransmit op) {
        transmitCompleted(op.getError(), op.getBytesCompleted(), op.getCount());
    }

    /** A file chunk behind a head was sent (plain or TLS): {@code count} file bytes, or {@code error}. */
    synchronized void transmitCompleted(Throwable error, long bytes, long count) {
        writePending = false;
        if (phase == Phase.CLOSED) {
            // Deferred by closeNow(): the file must stay open while a transmission is pending.
            body.close(channel);
            return;
        }
        if (error != null) {
            // Includes a file truncated while being sent (EOFException): the promised length cannot be kept.
            LOG.debug("{}: transmit failed after {} bytes", channel, bytes, error);
            closeNow();
            return;
        }
        if (body.chunkSent(count)) { // more to send: the completion counted as progress
            transmitChunk(null);
            return;
        }
        body.close(channel);
        afterResponse();
    }

    /** The response is out: close, go on with a pipelined request, or wait for the next one. */
    private void afterResponse() {
        if (closeAfterResponse) {
            linger();
        } else if (in.hasRemaining()) {
            phase = Phase.HEAD;
            if (arm(config.headerTimeoutMillis())) {
                processBuffered();
            }
        } else {
            phase = Phase.IDLE;
            if (arm(config.idleTimeoutMillis())) {
                in.clear();
                read();
            }
        }
    }

    private void linger() {
        phase = Phase.LINGERING;
        try {
            channel.shutdownOutput(); // the client sees the end of the response now, not after the drain
        } catch (IOException e) {
            LOG.debug("{}: shutdownOutput failed", channel, e);
            closeNow();
            return;
        }
        if (arm(Math.min(LINGER_MILLIS, config.idleTimeoutMillis())) && !readPending) {
            in.clear();
            read();
        }
    }

    // ---------------------------------------------------------------- timer and close

    /**
     * (Re)arms the connection's timer. Returns false, having closed the connection, if the demultiplexor is
     * closing (server shutdown), so that the caller starts nothing more.
     */
    private boolean arm(long millis) {
        return armNanos(TimeUnit.MILLISECONDS.toNanos(millis));
    }

    private boolean armNanos(long nanos) {
        if (timer.arm(nanos)) {
            return true;
        }
        closeNow();
        return false;
    }

    @Override
    public synchronized void onTimerCompleted(OpTimer op) {
        long now = System.nanoTime();
        if (phase == Phase.CLOSED || !timer.isDue(now)) {
            return; // cancelled or re-armed after this firing began: a later firing will decide
        }
        if (phase == Phase.RESPONDING && body.isOpen()) {
            // Sending a file: the timeout measures lack of progress. If a chunk completed since the timer was
            // armed, wait for the rest of an idle timeout counted from that completion.
            long left = TimeUnit.MILLISECONDS.toNanos(config.idleTimeoutMillis()) - body.nanosSinceProgress(now);
            if (left > 0) {
                armNanos(left);
                return;
            }
            LOG.debug("{}: no progress sending a file for {} ms", channel, config.idleTimeoutMillis());
        }
        if (phase == Phase.HEAD) {
            LOG.debug("{}: request head not complete within {} ms", channel, config.headerTimeoutMillis());
            respondAndClose(408);
        } else {
            // IDLE: idle timeout; RESPONDING: the client stopped receiving; LINGERING: drained long enough.
            closeNow();
        }
    }

    /** Closes the connection now; pending operations complete with errors and are ignored. Idempotent. */
    private void closeNow() {
        if (phase == Phase.CLOSED) {
            return;
        }
        phase = Phase.CLOSED;
        timer.cancel();
        channel.close();
        if (!writePending) {
            body.close(channel);
        }
    }

    /**
     * The server is stopping: an idle connection (or one whose request head is still arriving) closes now; one
     * that is responding closes once its response is out. Any thread.
     */
    synchronized void drain() {
        if (phase == Phase.IDLE || phase == Phase.HEAD) {
            closeNow();
        } else if (phase == Phase.RESPONDING) {
            closeAfterResponse = true;
        }
        // LINGERING: already closing; CLOSED: nothing to do.
    }
}
