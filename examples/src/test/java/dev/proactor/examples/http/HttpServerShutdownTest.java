package dev.proactor.examples.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link HttpServer#shutdown}: idle connections close at once, a response in flight is finished. The grace
 * period is far longer than the test's timeout, so a shutdown that waited it out instead of finishing when the
 * connections are gone fails the test rather than passing slowly.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class HttpServerShutdownTest {

    private static final Duration LONG_GRACE = Duration.ofMinutes(5);

    @TempDir
    static Path root;
    static byte[] large;

    @BeforeAll
    static void files() throws IOException {
        large = new byte[4 * 1024 * 1024 + 3];
        new Random(5).nextBytes(large);
        Files.write(root.resolve("large.bin"), large);
        Files.writeString(root.resolve("small.txt"), "hello\n");
    }

    private static HttpServer start() throws IOException {
        return HttpServerIntegrationTest.startServer(
                HttpServer.Config.defaults(new InetSocketAddress("127.0.0.1", 0), root));
    }

    @Test
    void anIdleServerStopsWithoutWaitingForItsGrace() throws Exception {
        HttpServer s = start();
        s.shutdown(LONG_GRACE);
        assertTrue(s.demultiplexor().isClosed());
    }

    @Test
    void anIdleKeptAliveConnectionIsClosedAtOnce() throws Exception {
        HttpServer s = start();
        try (RawHttp c = new RawHttp(s.localAddress())) {
            assertEquals("hello\n", c.send("GET /small.txt HTTP/1.1\r\nHost: h\r\n\r\n").read().bodyText());
            s.shutdown(LONG_GRACE);
            assertTrue(c.closedByServer());
        }
        assertEquals(0, s.openConnections());
    }

    @Test
    void aResponseInFlightIsFinishedThenTheConnectionCloses() throws Exception {
        HttpServer s = start();
        try (Socket c = new Socket()) {
            c.setReceiveBufferSize(16 * 1024); // keeps most of the body in the server while it stops
            c.connect(s.localAddress());
            c.getOutputStream().write(
                    "GET /large.bin HTTP/1.1\r\nHost: h\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            InputStream in = c.getInputStream();
            String head = readHead(in); // the response has begun: the server is sending the body
            assertTrue(head.startsWith("HTTP/1.1 200 "), head);
            CompletableFuture<Void> stopping = CompletableFuture.runAsync(() -> {
                try {
                    s.shutdown(LONG_GRACE);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            assertArrayEquals(large, in.readNBytes(large.length));
            assertEquals(-1, in.read(), "closed after the response");
            stopping.get(20, TimeUnit.SECONDS);
        }
        assertTrue(s.demultiplexor().isClosed());
    }

    private static String readHead(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (head.length() < 4 || !head.substring(head.length() - 4).equals("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("closed inside the head: " + head);
            }
            head.append((char) b);
        }
        return head.toString();
    }
}
