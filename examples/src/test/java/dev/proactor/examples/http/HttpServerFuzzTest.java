package dev.proactor.examples.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Feeds the server thousands of random and mutated requests (seeded, so a failure reproduces) over several
 * concurrent clients. The server must never hang (every read has a timeout), never answer anything but a
 * well-formed response with an expected status, never serve a file outside the root, keep serving, and close
 * every connection it opened (its open-connection count returns to 0).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HttpServerFuzzTest {

    private static final long SEED = 20_240_501L;
    private static final int CLIENTS = 4;
    private static final int INPUTS_PER_CLIENT = 600;
    private static final Set<Integer> EXPECTED = Set.of(200, 206, 301, 304, 400, 403, 404, 405, 408, 411, 413, 414, 416, 431, 505);
    private static final Pattern STATUS = Pattern.compile("HTTP/1\\.1 (\\d{3}) ");

    private static final String[] SEEDS = {
        "GET /a.txt HTTP/1.1\r\nHost: h\r\n\r\n",
        "HEAD /a.txt HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n",
        "GET /dir/ HTTP/1.1\r\nHost: h\r\nIf-Modified-Since: Sun, 06 Nov 1994 08:49:37 GMT\r\n\r\n",
        "GET /a.txt HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
        "GET /%61.txt?x=1&y=%2e%2e HTTP/1.1\r\nHost: h\r\nAccept: */*\r\nUser-Agent: fuzz\r\n\r\n",
        "GET http://h/a.txt HTTP/1.1\r\nHost: h\r\n\r\nGET /dir HTTP/1.1\r\nHost: h\r\n\r\n",
        "POST /a.txt HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhello",
        "GET /../secret.txt HTTP/1.1\r\nHost: h\r\n\r\n",
        "GET /link-out HTTP/1.1\r\nHost: h\r\n\r\n",
    };
    private static final String[] TOKENS = {
        "\r", "\n", "\r\n", "\r\n\r\n", "\0", " ", "\t", ":", "%", "%2e", "%2f", "%00", "..", "/", "\\", "?", "#",
        "HTTP/1.1", "HTTP/2.0", "Host: x\r\n", "Content-Length: 99\r\n", "Transfer-Encoding: chunked\r\n",
        "Connection: close\r\n", "\u00ff", "\u0080", "GET ", "HEAD ",
    };

    @TempDir
    Path tmp;

    @Test
    void survivesRandomAndMutatedRequests() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("root"));
        Files.writeString(root.resolve("a.txt"), "aaaa");
        Files.createDirectories(root.resolve("dir"));
        Files.writeString(root.resolve("dir/index.html"), "<i>dir</i>");
        Files.writeString(tmp.resolve("secret.txt"), "TOP-SECRET");
        Files.createSymbolicLink(root.resolve("link-out"), tmp.resolve("secret.txt"));
        HttpServer.Config config = HttpServer.Config.defaults(new InetSocketAddress("127.0.0.1", 0), root)
                .withIdleTimeoutMillis(300).withHeaderTimeoutMillis(200).withLimits(256, 1024, 16);
        try (HttpServer server = HttpServerIntegrationTest.startServer(config)) {
            InetSocketAddress address = server.localAddress();
            ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
            try {
                List<Future<Integer>> results = new ArrayList<>();
                for (int c = 0; c < CLIENTS; c++) {
                    long seed = SEED + c;
                    results.add(pool.submit(() -> runClient(address, new Random(seed))));
                }
                int responses = 0;
                for (Future<Integer> f : results) {
                    responses += f.get();
                }
                assertTrue(responses > CLIENTS * INPUTS_PER_CLIENT / 4, "most inputs got an answer: " + responses);
            } finally {
                pool.shutdownNow();
            }
            HttpServerIntegrationTest.eventually("open connections after the fuzz", server::openConnections, 0);
            RawHttp.Response r = RawHttp.exchange(address, "GET /a.txt HTTP/1.1\r\nHost: h\r\n\r\n");
            assertEquals(200, r.status(), "still serving");
            assertEquals("aaaa", r.bodyText());
        }
    }

    /** Sends this client's inputs, each on a new connection; returns how many responses came back. */
    private static int runClient(InetSocketAddress address, Random random) throws IOException {
        int responses = 0;
        for (int i = 0; i < INPUTS_PER_CLIENT; i++) {
            byte[] input = generate(random);
            // Most inputs end with a half-close, which ends a partial head at once; the rest rely on the
            // server's header and idle timeouts.
            boolean halfClose = random.nextInt(20) != 0;
            String received = exchange(address, input, halfClose, random);
            Matcher m = STATUS.matcher(received);
            if (!received.isEmpty() && !received.startsWith("HTTP/1.1 ")) {
                fail("malformed response to " + describe(input) + ": " + received);
            }
            while (m.find()) {
                int status = Integer.parseInt(m.group(1));
                assertTrue(EXPECTED.contains(status), "status " + status + " for " + describe(input));
                responses++;
            }
            assertFalse(received.contains("TOP-SECRET"), "served a file outside the root for " + describe(input));
        }
        return responses;
    }

    private static String exchange(InetSocketAddress address, byte[] input, boolean halfClose, Random random)
            throws IOException {
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        try (Socket s = new Socket()) {
            s.connect(address, RawHttp.READ_TIMEOUT_MILLIS);
            s.setSoTimeout(RawHttp.READ_TIMEOUT_MILLIS);
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            try {
                int pos = 0;
                while (pos < input.length) {
                    int n = Math.min(input.length - pos, 1 + random.nextInt(input.length));
                    out.write(input, pos, n);
                    out.flush();
                    pos += n;
                }
                if (halfClose) {
                    s.shutdownOutput();
                }
            } catch (SocketException e) {
                // The server answered an early error and closed while we were still writing: allowed.
            }
            byte[] buf = new byte[8192];
            try {
                for (int n = in.read(buf); n != -1; n = in.read(buf)) {
                    received.write(buf, 0, n);
                }
            } catch (SocketTimeoutException e) {
                fail("server neither answered nor closed within " + RawHttp.READ_TIMEOUT_MILLIS + " ms: "
                        + describe(input));
            } catch (SocketException e) {
                // Reset after a close with unread input: the connection ended, which is all we need.
            }
        }
        return received.toString(StandardCharsets.ISO_8859_1);
    }

    private static byte[] generate(Random r) {
        byte[] seed = SEEDS[r.nextInt(SEEDS.length)].getBytes(StandardCharsets.ISO_8859_1);
        switch (r.nextInt(8)) {
            case 0: { // random bytes
                byte[] b = new byte[1 + r.nextInt(300)];
                r.nextBytes(b);
                return b;
            }
            case 1: { // random text from the request alphabet
                StringBuilder sb = new StringBuilder();
                for (int i = 0, n = 1 + r.nextInt(40); i < n; i++) {
                    sb.append(TOKENS[r.nextInt(TOKENS.length)]);
                    if (r.nextBoolean()) {
                        sb.append((char) ('a' + r.nextInt(26)));
                    }
                }
                return sb.toString().getBytes(StandardCharsets.ISO_8859_1);
            }
            case 2: { // byte flips
                byte[] b = seed.clone();
                for (int i = 0, n = 1 + r.nextInt(4); i < n; i++) {
                    b[r.nextInt(b.length)] = (byte) r.nextInt(256);
                }
                return b;
            }
            case 3: { // token insertions
                String s = new String(seed, StandardCharsets.ISO_8859_1);
                for (int i = 0, n = 1 + r.nextInt(3); i < n; i++) {
                    int at = r.nextInt(s.length() + 1);
                    s = s.substring(0, at) + TOKENS[r.nextInt(TOKENS.length)] + s.substring(at);
                }
                return s.getBytes(StandardCharsets.ISO_8859_1);
            }
            case 4: { // deletion of a range
                int from = r.nextInt(seed.length);
                int to = Math.min(seed.length, from + 1 + r.nextInt(10));
                byte[] b = new byte[seed.length - (to - from)];
                System.arraycopy(seed, 0, b, 0, from);
                System.arraycopy(seed, to, b, from, seed.length - to);
                return b;
            }
            case 5: // truncation
                return java.util.Arrays.copyOf(seed, 1 + r.nextInt(seed.length));
            case 6: { // pipelined: valid, then mutated, then valid
                byte[] second = generate(r);
                return (SEEDS[0] + new String(second, StandardCharsets.ISO_8859_1) + SEEDS[1])
                        .getBytes(StandardCharsets.ISO_8859_1);
            }
            default: { // oversized pieces
                String s = new String(seed, StandardCharsets.ISO_8859_1);
                int at = s.indexOf('\n') + 1;
                String filler = r.nextBoolean() ? "X-Long: " + "v".repeat(r.nextInt(2000)) + "\r\n"
                        : "X: y\r\n".repeat(r.nextInt(40));
                return (s.substring(0, at) + filler + s.substring(at)).getBytes(StandardCharsets.ISO_8859_1);
            }
        }
    }

    private static String describe(byte[] input) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < Math.min(input.length, 200); i++) {
            int c = input[i] & 0xFF;
            if (c >= 0x20 && c < 0x7F && c != '\\') {
                sb.append((char) c);
            } else {
                sb.append(String.format("\\x%02x", c));
            }
        }
        return sb.append(input.length > 200 ? "...\"" : "\"").toString();
    }
}
