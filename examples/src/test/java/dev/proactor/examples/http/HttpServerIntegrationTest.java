package dev.proactor.examples.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proactor.ProactorConfig;
import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The HTTP server in-process on port 0 against a temporary root, driven by HttpClient, raw sockets and curl. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HttpServerIntegrationTest {

    @TempDir
    static Path tmp;
    static Path root;
    static byte[] big;
    static HttpServer server;
    static InetSocketAddress address;
    static HttpClient client;

    @BeforeAll
    static void start() throws IOException {
        root = Files.createDirectories(tmp.resolve("root"));
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("secret.txt"), "TOP-SECRET");
        Files.writeString(tmp.resolve("secret.txt"), "TOP-SECRET");
        Files.writeString(root.resolve("small.txt"), "hello, proactor\n");
        Files.write(root.resolve("empty.bin"), new byte[0]);
        big = new byte[3 * 1024 * 1024 + 12_345];
        new Random(7).nextBytes(big);
        Files.write(root.resolve("big.bin"), big);
        // Around the size where bodies stop being sent with the head and go by transmitFile instead.
        Files.write(root.resolve("inline-max.bin"), java.util.Arrays.copyOf(big, StaticFileResponder.INLINE_BODY_MAX));
        Files.write(root.resolve("inline-max-plus-1.bin"),
                java.util.Arrays.copyOf(big, StaticFileResponder.INLINE_BODY_MAX + 1));
        HttpServer.Config config = HttpServer.Config.defaults(new InetSocketAddress("127.0.0.1", 0), root);
        Files.write(root.resolve("chunk-plus-1.bin"),
                java.util.Arrays.copyOf(big, (int) FileBody.sendChunk(config.idleTimeoutMillis()) + 1));
        Files.createDirectories(root.resolve("site"));
        Files.writeString(root.resolve("site/index.html"), "<h1>site</h1>");
        Files.createSymbolicLink(root.resolve("link-out.txt"), outside.resolve("secret.txt"));
        Files.createSymbolicLink(root.resolve("dir-out"), outside);
        server = startServer(config);
        address = server.localAddress();
        client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    static HttpServer startServer(HttpServer.Config config) throws IOException {
        return new HttpServer(ProactorConfig.fromSystemProperties().toBuilder().threads(2).build(), config);
    }

    private static URI uri(String path) {
        return URI.create("http://127.0.0.1:" + address.getPort() + path);
    }

    private static HttpResponse<byte[]> get(String path, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(10));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    /** Waits (bounded) until the condition holds; the bound only guards against a hang, it is not measured. */
    static void eventually(String what, IntSupplier value, int expected) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (value.getAsInt() != expected) {
            if (System.nanoTime() - deadline > 0) {
                assertEquals(expected, value.getAsInt(), what);
            }
            Thread.sleep(10);
        }
    }

    // ---------------------------------------------------------------- content

    @ParameterizedTest
    @ValueSource(strings = {"small.txt", "empty.bin", "big.bin", "site/index.html", "inline-max.bin",
        "inline-max-plus-1.bin", "chunk-plus-1.bin"})
    void servesExactBytesWithContentLength(String name) throws Exception {
        byte[] expected = Files.readAllBytes(root.resolve(name));
        HttpResponse<byte[]> r = get("/" + name);
        assertEquals(200, r.statusCode());
        assertArrayEquals(expected, r.body());
        assertEquals(String.valueOf(expected.length), r.headers().firstValue("content-length").orElseThrow());
        assertTrue(r.headers().firstValue("last-modified").isPresent());
        assertTrue(r.headers().firstValue("date").isPresent());
    }

    @Test
    void setsContentTypeByExtension() throws Exception {
        assertEquals("text/plain; charset=utf-8", get("/small.txt").headers().firstValue("content-type").orElseThrow());
        assertEquals("application/octet-stream", get("/big.bin").headers().firstValue("content-type").orElseThrow());
        assertEquals("text/html; charset=utf-8", get("/site/").headers().firstValue("content-type").orElseThrow());
    }

    @Test
    void answersHeadWithTheLengthButNoBody() throws Exception {
        HttpResponse<byte[]> r = client.send(HttpRequest.newBuilder(uri("/big.bin"))
                .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, r.statusCode());
        assertEquals(String.valueOf(big.length), r.headers().firstValue("content-length").orElseThrow());
        assertEquals(0, r.body().length);
    }

    @Test
    void answers304WhenNotModifiedSince() throws Exception {
        String lastModified = get("/small.txt").headers().firstValue("last-modified").orElseThrow();
        HttpResponse<byte[]> r = get("/small.txt", "If-Modified-Since", lastModified);
        assertEquals(304, r.statusCode());
        assertEquals(0, r.body().length);
        assertEquals(200, get("/small.txt", "If-Modified-Since", "Thu, 01 Jan 1970 00:00:00 GMT").statusCode());
        assertEquals(200, get("/small.txt", "If-Modified-Since", "not a date").statusCode());
    }

    @Test
    void answers404And403() throws Exception {
        assertEquals(404, get("/missing.txt").statusCode());
        assertEquals(404, get("/small.txt/").statusCode());
        Files.createDirectories(root.resolve("no-index"));
        assertEquals(403, get("/no-index/").statusCode());
    }

    @Test
    void answers405WithAllowAndKeepsTheConnection() throws Exception {
        HttpResponse<byte[]> r = client.send(HttpRequest.newBuilder(uri("/small.txt"))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(405, r.statusCode());
        assertEquals("GET, HEAD", r.headers().firstValue("allow").orElseThrow());
        try (RawHttp c = new RawHttp(address)) {
            assertEquals(405, c.send("DELETE /small.txt HTTP/1.1\r\nHost: h\r\n\r\n").read().status());
            assertEquals(200, c.send("GET /small.txt HTTP/1.1\r\nHost: h\r\n\r\n").read().status());
        }
    }

    // ---------------------------------------------------------------- errors that close the connection

    @ParameterizedTest
    @ValueSource(strings = {
        "GARBAGE\r\n\r\n|400",
        "GET / HTTP/1.1\r\n\r\n|400",
        "GET /small.txt HTTP/1.1\r\nHost: h\r\nBad Header: x\r\n\r\n|400",
        "GET /small.txt HTTP/2.0\r\nHost: h\r\n\r\n|505",
        "POST /small.txt HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\n\r\nhello world|413",
        "POST /small.txt HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n|411",
    })
    void answersMalformedRequestsAndCloses(String spec) throws Exception {
        String[] parts = spec.split("\\|");
        try (RawHttp c = new RawHttp(address)) {
            RawHttp.Response r = c.send(parts[0]).read();
            assertEquals(Integer.parseInt(parts[1]), r.status());
            assertEquals("close", r.header("connection"));
            assertTrue(c.closedByServer());
        }
    }

    @Test
    void answers414And431ForOversizedHeads() throws Exception {
        try (RawHttp c = new RawHttp(address)) {
            String target = "/" + "x".repeat(9000);
            assertEquals(414, c.send("GET " + target + " HTTP/1.1\r\nHost: h\r\n\r\n").read().status());
            assertTrue(c.closedByServer());
        }
        try (RawHttp c = new RawHttp(address)) {
            String header = "X-Big: " + "y".repeat(20_000) + "\r\n";
            assertEquals(431, c.send("GET /small.txt HTTP/1.1\r\nHost: h\r\n" + header + "\r\n").read().status());
            assertTrue(c.closedByServer());
        }
        try (RawHttp c = new RawHttp(address)) {
            StringBuilder s = new StringBuilder("GET /small.txt HTTP/1.1\r\nHost: h\r\n");
            for (int i = 0; i < 150; i++) {
                s.append("X-").append(i).append(": v\r\n");
            }
            assertEquals(431, c.send(s.append("\r\n").toString()).read().status());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "/../secret.txt", "/../outside/secret.txt", "/site/../../secret.txt", "/%2e%2e/secret.txt",
        "/%2E%2E/outside/secret.txt", "/..%2fsecret.txt", "/site%2f..%2f..%2fsecret.txt", "/.%2e/secret.txt",
        "/..\\secret.txt", "/%5c..%5csecret.txt", "/small.txt%00", "/link-out.txt", "/dir-out/secret.txt",
        "/%2e%2e%2f%2e%2e%2fetc%2fpasswd", "../secret.txt", "http://h/../secret.txt",
    })
    void neverServesAnythingOutsideTheRoot(String target) throws Exception {
        RawHttp.Response r = RawHttp.exchange(address, "GET " + target + " HTTP/1.1\r\nHost: h\r\n\r\n");
        assertTrue(r.status() == 400 || r.status() == 404, target + " -> " + r.status());
        assertFalse(r.bodyText().contains("TOP-SECRET"), target);
    }

    // ---------------------------------------------------------------- connection handling

    @Test
    void keepsTheConnectionAliveAcrossRequests() throws Exception {
        try (RawHttp c = new RawHttp(address)) {
            for (int i = 0; i < 5; i++) {
                RawHttp.Response r = c.send("GET /small.txt HTTP/1.1\r\nHost: h\r\n\r\n").read();
                assertEquals(200, r.status());
                assertEquals("hello, proactor\n", r.bodyText());
                assertNull(r.header("connection"));
            }
            RawHttp.Response r = c.send("HEAD /big.bin HTTP/1.1\r\nHost: h\r\n\r\n").read(true);
            assertEquals(String.valueOf(big.length), r.header("content-length"));
            assertArrayEquals(big, c.send("GET /big.bin HTTP/1.1\r\nHost: h\r\n\r\n").read().body());
        }
    }

    @Test
    void answersPipelinedRequestsInOrder() throws Exception {
        try (RawHttp c = new RawHttp(address)) {
            c.send("GET /small.txt HTTP/1.1\r\nHost: h\r\n\r\n"
                    + "GET /missing HTTP/1.1\r\nHost: h\r\n\r\n"
                    + "GET /big.bin HTTP/1.1\r\nHost: h\r\n\r\n"
                    + "HEAD /site/ HTTP/1.1\r\nHost: h\r\n\r\n"
                    + "GET /site/index.html HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n");
            assertEquals("hello, proactor\n", c.read().bodyText());
            assertEquals(404, c.read().status());
            assertArrayEquals(big, c.read().body());
            assertEquals("13", c.read(true).header("content-length"));
            RawHttp.Response last = c.read();
            assertEquals("<h1>site</h1>", last.bodyText());
            assertEquals("close", last.header("connection"));
            assertTrue(c.closedByServer());
        }
    }

    @Test
    void answersPipelinedRequestsSplitAcrossWrites() throws Exception {
        try (RawHttp c = new RawHttp(address)) {
            byte[] all = ("GET /small.txt HTTP/1.1\r\nHost: h\r\n\r\nGET /site/ HTTP/1.1\r\nHost: h\r\n\r\n"
                    + "GET /empty.bin HTTP/1.1\r\nHost: h\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < all.length; i += 7) {
                c.send(java.util.Arrays.copyOfRange(all, i, Math.min(all.length, i + 7)));
            }
            assertEquals("hello, proactor\n", c.read().bodyText());
            assertEquals("<h1>site</h1>", c.read().bodyText());
            assertEquals(0, c.read().body().length);
        }
    }

    @Test
    void honoursConnectionCloseAndHttp10() throws Exception {
        try (RawHttp c = new RawHttp(address)) {
            RawHttp.Response r = c.send("GET /small.txt HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n").read();
            assertEquals(200, r.status());
            assertEquals("close", r.header("connection"));
            assertTrue(c.closedByServer());
        }
        try (RawHttp c = new RawHttp(address)) {
            RawHttp.Response r = c.send("GET /small.txt HTTP/1.0\r\n\r\n").read();
            assertEquals(200, r.status());
            assertEquals("close", r.header("connection"));
            assertTrue(c.closedByServer());
        }
        try (RawHttp c = new RawHttp(address)) {
            RawHttp.Response r = c.send("GET /small.txt HTTP/1.0\r\nConnection: keep-alive\r\n\r\n").read();
            assertEquals("keep-alive", r.header("connection"));
            assertEquals(200, c.send("GET /small.txt HTTP/1.0\r\nConnection: keep-alive\r\n\r\n").read().status());
        }
    }

    @Test
    void closesIdleConnectionsAndAnswers408ToSlowHeads() throws Exception {
        try (HttpServer s = startServer(HttpServer.Config.defaults(new InetSocketAddress("127.0.0.1", 0), root)
                .withIdleTimeoutMillis(200).withHeaderTimeoutMillis(300))) {
            InetSocketAddress a = s.localAddress();
            try (RawHttp c = new RawHttp(a)) {
                assertTrue(c.closedByServer(), "a connection that never sends is closed");
            }
            try (RawHttp c = new RawHttp(a)) {
                assertEquals(200, c.send("GET /small.txt HTTP/1.1\r\nHost: h\r\n\r\n").read().status());
                assertTrue(c.closedByServer(), "a kept-alive connection that goes quiet is closed");
            }
            try (RawHttp c = new RawHttp(a)) {
                // Slowloris: a byte now and then keeps the connection busy but never completes the head.
                c.send("GET /small.txt HTTP/1.1\r\n");
                RawHttp.Response r = null;
                for (int i = 0; i < 100 && r == null; i++) {
                    c.send("X-" + i + ": y\r\n");
                    if (c.socket.getInputStream().available() > 0) {
                        r = c.read();
                    } else {
                        Thread.sleep(50);
                    }
                }
                if (r == null) {
                    r = c.read();
                }
                assertEquals(408, r.status());
                assertTrue(c.closedByServer());
            } catch (java.net.SocketException e) {
                // The server may close while we still write: that is the point. Nothing else to check.
            }
            eventually("open connections", s::openConnections, 0);
        }
    }

    @Test
    void answers503BeyondTheConnectionLimit() throws Exception {
        try (HttpServer s = startServer(HttpServer.Config.defaults(new InetSocketAddress("127.0.0.1", 0), root)
                .withMaxConnections(2))) {
            InetSocketAddress a = s.localAddress();
            List<RawHttp> held = new ArrayList<>();
            try {
                for (int i = 0; i < 2; i++) {
                    RawHttp c = new RawHttp(a);
                    held.add(c);
                    assertEquals(200, c.send("GET /small.txt HTTP/1.1\r\nHost: h\r\n\r\n").read().status());
                }
                try (RawHttp c = new RawHttp(a)) {
                    RawHttp.Response r = c.send("GET /small.txt HTTP/1.1\r\nHost: h\r\n\r\n").read();
                    assertEquals(503, r.status());
                    assertEquals("1", r.header("retry-after"));
                    assertTrue(c.closedByServer());
                }
                assertTrue(s.rejectedConnections() >= 1);
                held.remove(0).close();
                eventually("open connections", s::openConnections, 1);
                try (RawHttp c = new RawHttp(a)) {
                    assertEquals(200, c.send("GET /small.txt HTTP/1.1\r\nHost: h\r\n\r\n").read().status());
                }
            } finally {
                for (RawHttp c : held) {
                    c.close();
                }
            }
            eventually("open connections", s::openConnections, 0);
        }
    }

    @Test
    void servesCurl() throws Exception {
        assumeTrue(onPath("curl"), "curl is not on PATH");
        Path out = tmp.resolve("curl-big.bin");
        Process p = new ProcessBuilder("curl", "-sS", "--max-time", "20", "-o", out.toString(),
                "-w", "%{http_code}", uri("/big.bin").toString(), uri("/small.txt").toString() + "?two")
                .redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), output);
        assertTrue(output.startsWith("200"), output);
        assertArrayEquals(big, Files.readAllBytes(out));

        p = new ProcessBuilder("curl", "-sS", "--max-time", "20", "-o", "/dev/null", "-w", "%{http_code}",
                "--path-as-is", uri("/../secret.txt").toString()).redirectErrorStream(true).start();
        output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals("400", output.trim());
    }

    static boolean onPath(String command) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, command))) {
                return true;
            }
        }
        return false;
    }

    @Test
    void leavesNoConnectionOpenAfterClientsLeave() throws Exception {
        // A server of its own: the shared one has HttpClient's pooled keep-alive connections open.
        try (HttpServer s = startServer(HttpServer.Config.defaults(new InetSocketAddress("127.0.0.1", 0), root))) {
            for (int i = 0; i < 20; i++) {
                try (RawHttp c = new RawHttp(s.localAddress())) {
                    c.send("GET /big.bin HTTP/1.1\r\nHost: h\r\n\r\n");
                    if (i % 2 == 0) {
                        c.read(); // the others leave in the middle of the response
                    }
                }
            }
            eventually("open connections", s::openConnections, 0);
        }
    }
}
