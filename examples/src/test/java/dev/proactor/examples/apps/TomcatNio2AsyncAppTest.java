package dev.proactor.examples.apps;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleState;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.apache.coyote.http11.Http11Nio2Protocol;
import org.apache.coyote.http2.Http2Protocol;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Embedded Tomcat 11 on {@link Http11Nio2Protocol} where Tomcat drives the channels with completion handlers
 * rather than blocking futures: a servlet doing non-blocking I/O ({@link ReadListener}/{@link WriteListener}),
 * and HTTP/2 (h2c upgrade) whose frames Tomcat reads and writes with timed scattering/gathering operations. On
 * whatever provider the JVM runs. Proves: a 10 MB upload echoed by the non-blocking servlet comes back
 * byte-exact over HTTP/1.1 and over HTTP/2; after the upgrade, 64 concurrent HTTP/2 streams and a 10 MB
 * download on one connection all get their exact bodies (and the server saw one client port).
 */
@ExtendWith(ProviderUnderTest.class)
@Timeout(value = 90, unit = TimeUnit.SECONDS)
@Tag("apps")
class TomcatNio2AsyncAppTest {

    private static final int TEN_MB = 10 * 1024 * 1024;
    private static final Duration HANG_GUARD = Duration.ofSeconds(60);

    private static Tomcat tomcat;
    private static URI base;

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        ProviderUnderTest.check();
        tomcat = new Tomcat();
        tomcat.setBaseDir(dir.toString());
        Connector connector = new Connector(Http11Nio2Protocol.class.getName());
        connector.setPort(0);
        connector.setProperty("address", "127.0.0.1");
        connector.addUpgradeProtocol(new Http2Protocol());
        tomcat.setConnector(connector);
        Context ctx = tomcat.addContext("", dir.toString());
        TomcatNio2AppTest.quietLeakDetection(ctx);
        Tomcat.addServlet(ctx, "bytes", new TomcatNio2AppTest.BytesServlet());
        ctx.addServletMapping("/bytes", "bytes");
        Tomcat.addServlet(ctx, "async-echo", new AsyncEchoServlet()).setAsyncSupported(true);
        ctx.addServletMapping("/async-echo", "async-echo");
        tomcat.start();
        assertEquals(LifecycleState.STARTED, connector.getState(), "connector state");
        base = URI.create("http://127.0.0.1:" + connector.getLocalPort());
    }

    @AfterAll
    static void stop() throws Exception {
        if (tomcat != null) {
            tomcat.stop();
            tomcat.destroy();
        }
    }

    private static HttpRequest.Builder request(String pathAndQuery) {
        return HttpRequest.newBuilder(base.resolve(pathAndQuery)).timeout(HANG_GUARD);
    }

    /** 10 MB through the non-blocking servlet over HTTP/1.1: read by a ReadListener, written by a WriteListener. */
    @Test
    void nonBlockingServletEchoesTenMegabytesOverHttp11() throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        byte[] data = TestData.bytes(21, TEN_MB);
        HttpResponse<byte[]> r = client.send(request("/async-echo").POST(HttpRequest.BodyPublishers.ofByteArray(data))
                .build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, r.statusCode());
        assertEquals(HttpClient.Version.HTTP_1_1, r.version());
        assertEquals(TestData.sha256Hex(data), r.headers().firstValue(AsyncEchoServlet.RECEIVED_SHA256).orElseThrow(),
                "SHA-256 of what the servlet read");
        assertArrayEquals(data, r.body(), "echoed body");
    }

    /**
     * HTTP/2 after an h2c upgrade: 64 concurrent streams of 128 KB, a 10 MB download and a 10 MB upload through the
     * non-blocking servlet, all on one connection, all byte-exact.
     */
    @Test
    void http2StreamsOnOneConnectionAreByteExact() throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        Set<String> ports = ConcurrentHashMap.newKeySet();
        HttpResponse<byte[]> first = client.send(request("/bytes?seed=1&size=100").build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, first.statusCode());
        assertEquals(HttpClient.Version.HTTP_2, first.version(), "the h2c upgrade happened");
        assertArrayEquals(TestData.bytes(1, 100), first.body());
        ports.add(first.headers().firstValue(TomcatNio2AppTest.BytesServlet.REMOTE_PORT).orElseThrow());

        List<CompletableFuture<Void>> streams = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            streams.add(getExact(client, 500 + i, 128 * 1024, ports));
        }
        streams.add(getExact(client, 499, TEN_MB, ports));
        byte[] upload = TestData.bytes(22, TEN_MB);
        streams.add(client.sendAsync(request("/async-echo").POST(HttpRequest.BodyPublishers.ofByteArray(upload))
                .build(), HttpResponse.BodyHandlers.ofByteArray()).thenAccept(r -> {
                    assertEquals(200, r.statusCode(), "status of the upload");
                    assertEquals(HttpClient.Version.HTTP_2, r.version());
                    assertArrayEquals(upload, r.body(), "10 MB echoed over HTTP/2");
                    ports.add(r.headers().firstValue(TomcatNio2AppTest.BytesServlet.REMOTE_PORT).orElseThrow());
                }));
        CompletableFuture.allOf(streams.toArray(CompletableFuture[]::new)).get();
        assertEquals(1, ports.size(), "client ports the server saw (one HTTP/2 connection): " + ports);
    }

    private static CompletableFuture<Void> getExact(HttpClient client, long seed, int size, Set<String> ports) {
        return client.sendAsync(request("/bytes?seed=" + seed + "&size=" + size).build(),
                HttpResponse.BodyHandlers.ofByteArray()).thenAccept(r -> {
                    assertEquals(200, r.statusCode(), "status of stream " + seed);
                    assertEquals(HttpClient.Version.HTTP_2, r.version(), "version of stream " + seed);
                    assertArrayEquals(TestData.bytes(seed, size), r.body(), "body of stream " + seed);
                    ports.add(r.headers().firstValue(TomcatNio2AppTest.BytesServlet.REMOTE_PORT).orElseThrow());
                });
    }

    /**
     * {@code POST /async-echo}: non-blocking servlet I/O. A {@link ReadListener} reads the whole body, then a
     * {@link WriteListener} writes it back in 32 KB pieces while the stream is ready; the SHA-256 of what was
     * read and the client port are sent as headers.
     */
    static final class AsyncEchoServlet extends HttpServlet {
        private static final long serialVersionUID = 1L;
        static final String RECEIVED_SHA256 = "X-Received-Sha256";

        @Override
        protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            AsyncContext async = req.startAsync();
            async.setTimeout(HANG_GUARD.toMillis());
            ServletInputStream in = req.getInputStream();
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            String remotePort = String.valueOf(req.getRemotePort());
            in.setReadListener(new ReadListener() {
                private final byte[] buf = new byte[16 * 1024];

                @Override
                public void onDataAvailable() throws IOException {
                    while (in.isReady() && !in.isFinished()) {
                        int n = in.read(buf);
                        if (n > 0) {
                            body.write(buf, 0, n);
                        }
                    }
                }

                @Override
                public void onAllDataRead() throws IOException {
                    byte[] data = body.toByteArray();
                    resp.setContentType("application/octet-stream");
                    resp.setContentLength(data.length);
                    resp.setHeader(RECEIVED_SHA256, TestData.sha256Hex(data));
                    resp.setHeader(TomcatNio2AppTest.BytesServlet.REMOTE_PORT, remotePort);
                    ServletOutputStream out = resp.getOutputStream();
                    out.setWriteListener(new WriteListener() {
                        private int written;

                        @Override
                        public void onWritePossible() throws IOException {
                            while (out.isReady()) {
                                if (written == data.length) {
                                    async.complete();
                                    return;
                                }
                                int n = Math.min(32 * 1024, data.length - written);
                                out.write(data, written, n);
                                written += n;
                            }
                        }

                        @Override
                        public void onError(Throwable t) {
                            async.complete();
                        }
                    });
                }

                @Override
                public void onError(Throwable t) {
                    async.complete();
                }
            });
        }
    }
}
