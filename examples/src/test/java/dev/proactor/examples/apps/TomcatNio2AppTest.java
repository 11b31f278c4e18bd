package dev.proactor.examples.apps;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleState;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.core.StandardContext;
import org.apache.catalina.startup.Tomcat;
import org.apache.coyote.http11.Http11Nio2Protocol;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Embedded Tomcat 11 with the {@link Http11Nio2Protocol} connector (Tomcat's own {@code AsynchronousChannelGroup}
 * on its executor, {@code AsynchronousServerSocketChannel} and {@code AsynchronousSocketChannel}) serving a
 * servlet, on whatever provider the JVM runs, fetched with {@link HttpClient} over HTTP/1.1. Proves: requests on
 * one client share one kept-alive connection; a 10 MB response and a 10 MB upload echoed back arrive byte-exact
 * (the server also reports the SHA-256 of what it received); 200 concurrent clients doing 5 requests each all
 * get status 200 and their exact bodies; a silent connection and an idle kept-alive one are closed by the server
 * once its (short) timeouts pass, i.e. its timed reads expire; both connectors stop and are destroyed (their
 * channel groups shut down).
 */
@ExtendWith(ProviderUnderTest.class)
@Timeout(value = 90, unit = TimeUnit.SECONDS)
@Tag("apps")
class TomcatNio2AppTest {

    private static final int TEN_MB = 10 * 1024 * 1024;
    private static final int CLIENTS = 200;
    private static final int REQUESTS_PER_CLIENT = 5;
    private static final Duration HANG_GUARD = Duration.ofSeconds(60);
    private static final int IDLE_TIMEOUT_MILLIS = 250;

    private static Tomcat tomcat;
    private static URI base;
    /** The second connector, whose connectionTimeout and keepAliveTimeout are {@link #IDLE_TIMEOUT_MILLIS}. */
    private static InetSocketAddress idleAddress;
    private static ExecutorService clientExecutor;

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        ProviderUnderTest.check();
        tomcat = new Tomcat();
        tomcat.setBaseDir(dir.toString());
        Connector connector = new Connector(Http11Nio2Protocol.class.getName());
        connector.setPort(0);
        connector.setProperty("address", "127.0.0.1");
        connector.setProperty("acceptCount", "512"); // 200 clients connect at once
        tomcat.setConnector(connector);
        Connector idle = new Connector(Http11Nio2Protocol.class.getName()); // a second endpoint, short timeouts
        idle.setPort(0);
        idle.setProperty("address", "127.0.0.1");
        idle.setProperty("connectionTimeout", String.valueOf(IDLE_TIMEOUT_MILLIS));
        idle.setProperty("keepAliveTimeout", String.valueOf(IDLE_TIMEOUT_MILLIS));
        tomcat.getService().addConnector(idle);
        Context ctx = tomcat.addContext("", dir.toString());
        quietLeakDetection(ctx);
        Tomcat.addServlet(ctx, "bytes", new BytesServlet());
        ctx.addServletMapping("/bytes", "bytes");
        Tomcat.addServlet(ctx, "echo", new EchoServlet());
        ctx.addServletMapping("/echo", "echo");
        tomcat.start();
        assertEquals(LifecycleState.STARTED, connector.getState(), "connector state");
        assertInstanceOf(Http11Nio2Protocol.class, connector.getProtocolHandler());
        assertEquals(LifecycleState.STARTED, idle.getState(), "short-timeout connector state");
        base = URI.create("http://127.0.0.1:" + connector.getLocalPort());
        idleAddress = new InetSocketAddress("127.0.0.1", idle.getLocalPort());
        clientExecutor = Executors.newFixedThreadPool(8);
    }

    /**
     * Turns off the web-app class loader's reflective leak checks, which cannot work without {@code --add-opens}
     * and only log a warning each time at stop.
     */
    static void quietLeakDetection(Context ctx) {
        StandardContext context = (StandardContext) ctx;
        context.setClearReferencesRmiTargets(false);
        context.setClearReferencesThreadLocals(false);
    }

    @AfterAll
    static void stop() throws Exception {
        if (tomcat != null) {
            Connector[] connectors = tomcat.getService().findConnectors();
            tomcat.stop();
            tomcat.destroy();
            for (Connector c : connectors) {
                assertEquals(LifecycleState.DESTROYED, c.getState(), "connector state after destroy");
            }
        }
        if (clientExecutor != null) {
            clientExecutor.shutdownNow();
        }
    }

    private static HttpClient newClient() {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(clientExecutor)
                .connectTimeout(HANG_GUARD).build();
    }

    private static HttpRequest.Builder request(String pathAndQuery) {
        return HttpRequest.newBuilder(base.resolve(pathAndQuery)).timeout(HANG_GUARD);
    }

    /** Ten requests on one client: all answered, all on one TCP connection (the server saw one client port). */
    @Test
    void keepAliveRequestsShareOneConnection() throws Exception {
        HttpClient client = newClient();
        Set<String> ports = new HashSet<>();
        for (int i = 0; i < 10; i++) {
            HttpResponse<byte[]> r = client.send(request("/bytes?seed=" + i + "&size=" + (1000 + i)).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(200, r.statusCode());
            assertArrayEquals(TestData.bytes(i, 1000 + i), r.body(), "body of request " + i);
            ports.add(r.headers().firstValue(BytesServlet.REMOTE_PORT).orElseThrow());
        }
        assertEquals(1, ports.size(), "client ports the server saw (one kept-alive connection): " + ports);
    }

    /** A 10 MB response body arrives complete and byte-exact. */
    @Test
    void tenMegabyteDownloadIsByteExact() throws Exception {
        HttpResponse<byte[]> r = newClient().send(request("/bytes?seed=42&size=" + TEN_MB).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, r.statusCode());
        assertEquals(TEN_MB, r.body().length, "bytes received");
        assertArrayEquals(TestData.bytes(42, TEN_MB), r.body(), "10 MB body");
    }

    /** A 10 MB upload reaches the servlet intact (its SHA-256 says so) and comes back byte-exact. */
    @Test
    void tenMegabyteUploadIsEchoedByteExact() throws Exception {
        byte[] data = TestData.bytes(7, TEN_MB);
        HttpResponse<byte[]> r = newClient().send(request("/echo").POST(HttpRequest.BodyPublishers.ofByteArray(data))
                .build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, r.statusCode());
        assertEquals(String.valueOf(TEN_MB), r.headers().firstValue(EchoServlet.RECEIVED_BYTES).orElseThrow(),
                "bytes the servlet read");
        assertEquals(TestData.sha256Hex(data), r.headers().firstValue(EchoServlet.RECEIVED_SHA256).orElseThrow(),
                "SHA-256 of what the servlet read");
        assertArrayEquals(data, r.body(), "echoed 10 MB body");
    }

    /**
     * 200 clients (one {@link HttpClient}, so at least one connection, each) started at once, each doing 5
     * requests in turn, downloads and uploads alternating: all 1000 answered 200 with their exact bodies, from
     * at least 200 distinct client connections.
     */
    @Test
    void twoHundredConcurrentClientsAllSucceed() throws Exception {
        List<HttpClient> clients = new ArrayList<>(); // kept reachable: their connections stay open to the end
        List<CompletableFuture<Integer>> done = new ArrayList<>();
        Set<String> ports = ConcurrentHashMap.newKeySet();
        for (int c = 0; c < CLIENTS; c++) {
            HttpClient client = newClient();
            clients.add(client);
            CompletableFuture<Integer> chain = CompletableFuture.completedFuture(0);
            for (int i = 0; i < REQUESTS_PER_CLIENT; i++) {
                long seed = 10_000L * c + i;
                int size = 2048 + (int) (seed % 20_000);
                boolean upload = i % 2 == 1;
                chain = chain.thenCompose(ok -> exchange(client, seed, size, upload, ports).thenApply(n -> ok + n));
            }
            done.add(chain);
        }
        int succeeded = 0;
        for (CompletableFuture<Integer> f : done) {
            succeeded += f.get();
        }
        assertEquals(CLIENTS * REQUESTS_PER_CLIENT, succeeded, "requests answered 200 with the exact body");
        assertTrue(ports.size() >= CLIENTS, "distinct client connections the server saw: " + ports.size());
        assertEquals(CLIENTS, clients.size());
    }

    /**
     * A connection that never sends a byte is closed by the server once its connectionTimeout has passed: Tomcat's
     * read with a timeout expires ({@code InterruptedByTimeoutException}) and it closes the channel, so the client
     * reads end-of-stream. (The socket's own read timeout is only a hang guard.)
     */
    @Test
    void silentConnectionIsClosedAfterConnectionTimeout() throws Exception {
        try (Socket s = new Socket()) {
            s.connect(idleAddress);
            s.setSoTimeout((int) HANG_GUARD.toMillis());
            assertEquals(-1, s.getInputStream().read(), "end-of-stream from the server");
        }
    }

    /**
     * After one answered request, the kept-alive connection left idle is closed by the server once its
     * keepAliveTimeout has passed (again a timed read expiring), and the client reads end-of-stream right after the
     * exact response.
     */
    @Test
    void idleKeptAliveConnectionIsClosedAfterKeepAliveTimeout() throws Exception {
        try (Socket s = new Socket()) {
            s.connect(idleAddress);
            s.setSoTimeout((int) HANG_GUARD.toMillis());
            s.getOutputStream().write(("GET /bytes?seed=5&size=3000 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            InputStream in = s.getInputStream();
            String head = readHead(in);
            assertTrue(head.startsWith("HTTP/1.1 200 "), "status line: " + head);
            assertTrue(head.toLowerCase(Locale.ROOT).contains("\r\ncontent-length: 3000\r\n"), "head: " + head);
            assertArrayEquals(TestData.bytes(5, 3000), in.readNBytes(3000), "body");
            assertEquals(-1, in.read(), "end-of-stream from the server once the connection idled");
        }
    }

    /** The response head up to and including the blank line, read byte by byte. */
    private static String readHead(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("end-of-stream inside the response head: " + head);
            }
            head.append((char) b);
        }
        return head.toString();
    }

    /** One request; completes with 1 when the status is 200 and the body exact, fails otherwise. */
    private static CompletableFuture<Integer> exchange(HttpClient client, long seed, int size, boolean upload,
                                                      Set<String> ports) {
        byte[] expected = TestData.bytes(seed, size);
        HttpRequest req = upload
                ? request("/echo").POST(HttpRequest.BodyPublishers.ofByteArray(expected)).build()
                : request("/bytes?seed=" + seed + "&size=" + size).build();
        return client.sendAsync(req, HttpResponse.BodyHandlers.ofByteArray()).thenApply(r -> {
            assertEquals(200, r.statusCode(), "status of " + req.method() + " " + req.uri());
            assertArrayEquals(expected, r.body(), "body of " + req.method() + " " + req.uri());
            ports.add(r.headers().firstValue(BytesServlet.REMOTE_PORT).orElseThrow());
            return 1;
        });
    }

    /** {@code GET /bytes?seed=S&size=N}: N reproducible pseudo-random bytes; tells the client port it saw. */
    static final class BytesServlet extends HttpServlet {
        private static final long serialVersionUID = 1L;
        static final String REMOTE_PORT = "X-Remote-Port";

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            long seed = Long.parseLong(req.getParameter("seed"));
            int size = Integer.parseInt(req.getParameter("size"));
            byte[] body = TestData.bytes(seed, size);
            resp.setContentType("application/octet-stream");
            resp.setContentLength(body.length);
            resp.setHeader(REMOTE_PORT, String.valueOf(req.getRemotePort()));
            try (OutputStream out = resp.getOutputStream()) {
                out.write(body);
            }
        }
    }

    /**
     * {@code POST /echo}: reads the whole body, then sends it back with its length and SHA-256 in headers (and
     * the client port it saw).
     */
    static final class EchoServlet extends HttpServlet {
        private static final long serialVersionUID = 1L;
        static final String RECEIVED_BYTES = "X-Received-Bytes";
        static final String RECEIVED_SHA256 = "X-Received-Sha256";

        @Override
        protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            byte[] body = req.getInputStream().readAllBytes();
            resp.setContentType("application/octet-stream");
            resp.setContentLength(body.length);
            resp.setHeader(RECEIVED_BYTES, String.valueOf(body.length));
            resp.setHeader(RECEIVED_SHA256, TestData.sha256Hex(body));
            resp.setHeader(BytesServlet.REMOTE_PORT, String.valueOf(req.getRemotePort()));
            try (OutputStream out = resp.getOutputStream()) {
                out.write(body);
            }
        }
    }
}
