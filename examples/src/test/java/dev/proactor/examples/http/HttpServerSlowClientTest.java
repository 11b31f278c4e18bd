package dev.proactor.examples.http;

import static dev.proactor.examples.http.HttpServerIntegrationTest.eventually;
import static dev.proactor.examples.http.HttpServerIntegrationTest.startServer;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The idle timeout while a response is being sent measures lack of progress, not time per piece: a client that
 * reads slowly but steadily gets the whole of a large body, one that stops reading is disconnected. The server
 * runs on the engine the system properties select (like {@link HttpServerIntegrationTest}).
 *
 * <p>Nothing here measures time: the sleeps pace the client, and the bounded waits only guard against a hang.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HttpServerSlowClientTest {

    /** Short, so that the slow client below takes many idle timeouts to read the body. */
    static final long IDLE_TIMEOUT_MILLIS = 300;
    /**
     * The client's receive buffer: a small TCP window, so the server's sends are paced by what the client reads
     * rather than soaked up by a large buffer on the client's side. It also makes the client's kernel announce
     * freed space in small steps (Linux waits until half the buffer or one MSS is free, and the loopback MSS is
     * 64 KiB).
     */
    static final int RECEIVE_BUFFER = 16 * 1024;
    /** The slow client reads at most this much at a time ... */
    static final int PIECE = 16 * 1024;
    /** ... and then sleeps this long, well below the idle timeout. */
    static final long PAUSE_MILLIS = 20;

    @TempDir
    static Path tmp;
    static Path root;
    /**
     * Larger than the most the kernel could buffer between the server and a client that reads nothing even with
     * an autotuned send buffer (up to 4 MiB by default on Linux, plus the client's receive buffer), so that a
     * client must keep reading over many idle timeouts to get it all; not a multiple of any chunk size.
     */
    static byte[] large;

    @BeforeAll
    static void files() throws IOException {
        root = Files.createDirectories(tmp.resolve("root"));
        large = new byte[6 * 1024 * 1024 + 12_345];
        new Random(11).nextBytes(large);
        Files.write(root.resolve("large.bin"), large);
        Files.writeString(root.resolve("small.txt"), "hello, proactor\n");
    }

    static HttpServer.Config config() {
        return HttpServer.Config.defaults(new InetSocketAddress("127.0.0.1", 0), root)
                .withIdleTimeoutMillis(IDLE_TIMEOUT_MILLIS);
    }

    @Test
    void sizesTheSendChunkFromTheIdleTimeout() {
        assertEquals(FileBody.MIN_SEND_CHUNK, FileBody.sendChunk(1));
        assertEquals(FileBody.MIN_SEND_CHUNK, FileBody.sendChunk(IDLE_TIMEOUT_MILLIS));
        assertEquals(120 * 1024, FileBody.sendChunk(30_000));
        assertEquals(FileBody.MAX_SEND_CHUNK, FileBody.sendChunk(Long.MAX_VALUE));
    }

    @Test
    void slowButSteadyReaderGetsTheWholeBody() throws Exception {
        try (HttpServer s = startServer(config())) {
            try (RawHttp c = new RawHttp(s.localAddress(), RECEIVE_BUFFER)) {
                RawHttp.Response r = c.send("GET /large.bin HTTP/1.1\r\nHost: h\r\n\r\n")
                        .readSlowly(PIECE, PAUSE_MILLIS);
                assertEquals(200, r.status());
                assertArrayEquals(large, r.body());
                // The connection is still kept alive, and the idle timeout between requests still applies.
                RawHttp.Response next = c.send("GET /small.txt HTTP/1.1\r\nHost: h\r\n\r\n").read();
                assertEquals("hello, proactor\n", next.bodyText());
                assertTrue(c.closedByServer(), "a kept-alive connection that goes quiet is closed");
            }
            eventually("open connections", s::openConnections, 0);
        }
    }

    /**
     * A client that asks for the large file and then stops reading, at once or after part of the body, is
     * disconnected: the server's buffers fill, nothing more is sent for an idle timeout, and the server closes.
     */
    @ParameterizedTest
    @ValueSource(ints = {0, 512 * 1024})
    void clientThatStopsReadingIsDisconnected(int readBeforeStalling) throws Exception {
        try (HttpServer s = startServer(config())) {
            try (RawHttp c = new RawHttp(s.localAddress(), RECEIVE_BUFFER)) {
                c.send("GET /large.bin HTTP/1.1\r\nHost: h\r\n\r\n");
                eventually("open connections once the server has the connection", s::openConnections, 1);
                InputStream in = c.socket.getInputStream();
                byte[] piece = new byte[PIECE];
                long read = 0;
                while (read < readBeforeStalling) {
                    int n = in.read(piece, 0, (int) Math.min(piece.length, readBeforeStalling - read));
                    assertTrue(n > 0, "the response ended early");
                    read += n;
                    Thread.sleep(PAUSE_MILLIS);
                }
                // Now read nothing: the server must give up on the connection by itself.
                eventually("open connections while the client reads nothing", s::openConnections, 0);
                read += c.drainUntilClosed(); // what was already buffered, then end-of-stream or a reset
                assertTrue(read < large.length, "the response was cut off, got " + read + " bytes");
            }
        }
    }
}
