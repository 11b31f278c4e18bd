package dev.proactor.examples.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

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
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Range requests, entity-tags and the directory redirect, over real HTTP. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HttpServerConditionalTest {

    @TempDir
    static Path tmp;
    static byte[] big;
    static HttpServer server;
    static HttpClient client;

    @BeforeAll
    static void start() throws IOException {
        Path root = Files.createDirectories(tmp.resolve("root"));
        big = new byte[1024 * 1024 + 77];
        new Random(11).nextBytes(big);
        Files.write(root.resolve("big.bin"), big);
        Files.write(root.resolve("small.bin"), Arrays.copyOf(big, 1000));
        Files.createDirectories(root.resolve("docs"));
        Files.writeString(root.resolve("docs/index.html"), "<a href=\"page.html\">page</a>");
        server = HttpServerIntegrationTest.startServer(
                HttpServer.Config.defaults(new InetSocketAddress("127.0.0.1", 0), root));
        client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static URI uri(String path) throws IOException {
        return URI.create("http://127.0.0.1:" + server.localAddress().getPort() + path);
    }

    private static HttpResponse<byte[]> get(String path, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(10));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    @ParameterizedTest
    @CsvSource({
        "/small.bin, bytes=0-99, 0, 99",
        "/small.bin, bytes=990-, 990, 999",
        "/small.bin, bytes=-10, 990, 999",
        "/small.bin, bytes=900-5000, 900, 999",
        "/big.bin, bytes=1000-600000, 1000, 600000",
        "/big.bin, bytes=-100000, 948653, 1048652",
    })
    void servesASingleRangeWith206(String path, String range, long first, long last) throws Exception {
        HttpResponse<byte[]> r = get(path, "Range", range);
        assertEquals(206, r.statusCode());
        long total = path.equals("/big.bin") ? big.length : 1000;
        assertEquals("bytes " + first + "-" + last + "/" + total,
                r.headers().firstValue("Content-Range").orElse(null));
        assertEquals("bytes", r.headers().firstValue("Accept-Ranges").orElse(null));
        assertArrayEquals(Arrays.copyOfRange(big, (int) first, (int) last + 1), r.body());
    }

    @Test
    void anUnsatisfiableRangeIs416() throws Exception {
        HttpResponse<byte[]> r = get("/small.bin", "Range", "bytes=1000-");
        assertEquals(416, r.statusCode());
        assertEquals("bytes */1000", r.headers().firstValue("Content-Range").orElse(null));
    }

    @Test
    void severalRangesOrAnotherUnitGetTheWholeFile() throws Exception {
        for (String range : new String[] {"bytes=0-1,5-6", "items=0-1", "bytes=x-y", "bytes=5-1"}) {
            HttpResponse<byte[]> r = get("/small.bin", "Range", range);
            assertEquals(200, r.statusCode(), range);
            assertEquals(1000, r.body().length, range);
        }
    }

    @Test
    void ifRangeWithTheCurrentTagServesTheRangeAndWithAnOldOneTheWholeFile() throws Exception {
        String etag = get("/small.bin").headers().firstValue("ETag").orElseThrow();
        assertEquals(206, get("/small.bin", "Range", "bytes=0-9", "If-Range", etag).statusCode());
        HttpResponse<byte[]> stale = get("/small.bin", "Range", "bytes=0-9", "If-Range", "\"0-0\"");
        assertEquals(200, stale.statusCode());
        assertEquals(1000, stale.body().length);
        String lastModified = get("/small.bin").headers().firstValue("Last-Modified").orElseThrow();
        assertEquals(206, get("/small.bin", "Range", "bytes=0-9", "If-Range", lastModified).statusCode());
    }

    @Test
    void aStrongEtagAnswersIfNoneMatchWith304() throws Exception {
        HttpResponse<byte[]> first = get("/big.bin");
        String etag = first.headers().firstValue("ETag").orElseThrow();
        assertTrue(etag.startsWith("\"") && etag.endsWith("\"") && !etag.startsWith("W/"), etag);
        HttpResponse<byte[]> again = get("/big.bin", "If-None-Match", "\"other\", " + etag);
        assertEquals(304, again.statusCode());
        assertEquals(etag, again.headers().firstValue("ETag").orElse(null));
        assertEquals(0, again.body().length);
        assertEquals(304, get("/big.bin", "If-None-Match", "*").statusCode());
        assertEquals(200, get("/big.bin", "If-None-Match", "\"other\"").statusCode());
        // If-None-Match wins over If-Modified-Since (RFC 9110 section 13.2.2).
        assertEquals(200, get("/big.bin", "If-None-Match", "\"other\"", "If-Modified-Since",
                "Fri, 01 Jan 2100 00:00:00 GMT").statusCode());
    }

    @Test
    void aDirectoryWithoutTrailingSlashRedirects() throws Exception {
        HttpResponse<byte[]> r = get("/docs?x=1");
        assertEquals(301, r.statusCode());
        assertEquals("/docs/?x=1", r.headers().firstValue("Location").orElse(null));
        HttpResponse<byte[]> followed = get(r.headers().firstValue("Location").orElseThrow());
        assertEquals(200, followed.statusCode());
        assertTrue(new String(followed.body(), StandardCharsets.UTF_8).contains("page.html"));
    }

    @Test
    void curlRangeGetsHundredBytesWith206() throws Exception {
        assumeTrue(HttpServerIntegrationTest.onPath("curl"), "curl is not on PATH");
        Path out = tmp.resolve("curl-range.bin");
        Process p = new ProcessBuilder("curl", "-sS", "--max-time", "20", "-r", "0-99", "-o", out.toString(),
                "-w", "%{http_code}", uri("/big.bin").toString()).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), output);
        assertEquals("206", output.trim());
        byte[] got = Files.readAllBytes(out);
        assertNotNull(got);
        assertArrayEquals(Arrays.copyOf(big, 100), got);
    }
}
