package dev.proactor.examples.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proactor.ProactorConfig;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The HTTP server over TLS ({@code --tls-cert}/{@code --tls-key}) with a self-signed certificate made by
 * {@code keytool} at run time: {@code HttpClient}, {@code curl --cacert} and {@code openssl s_client} with TLS 1.3
 * and 1.2 (each skipped, with the reason, when the tool is not installed), and a plain-text client refused
 * without harm to the server.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HttpsIntegrationTest {

    @TempDir
    static Path tmp;
    static Path cert;
    static Path key;
    static byte[] big;
    static HttpServer server;
    static InetSocketAddress address;
    static HttpClient client;
    static SSLContext clientTls;

    @BeforeAll
    static void start() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("root"));
        Files.writeString(root.resolve("small.txt"), "hello, tls\n");
        big = new byte[1024 * 1024 + 4321];
        new Random(3).nextBytes(big);
        Files.write(root.resolve("big.bin"), big);
        KeyStore ks = generate("RSA", tmp.resolve("rsa"));
        cert = tmp.resolve("cert.pem");
        key = tmp.resolve("key.pem");
        writePem(ks, cert, key);
        HttpServer.Config config = HttpServer.Config.defaults(new InetSocketAddress("127.0.0.1", 0), root);
        server = new HttpServer(ProactorConfig.builder().threads(2).build(), config, PemTls.serverContext(cert, key));
        address = server.localAddress();
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("server", ks.getCertificate("server"));
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, tmf.getTrustManagers(), null);
        clientTls = ctx;
        client = HttpClient.newBuilder().sslContext(ctx).connectTimeout(Duration.ofSeconds(5)).build();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    /** A self-signed key pair for localhost/127.0.0.1 from the JDK's keytool. */
    static KeyStore generate(String keyalg, Path dir) throws Exception {
        Files.createDirectories(dir);
        Path store = dir.resolve("key.p12");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-noprompt", "-alias", "server", "-keyalg", keyalg, "-dname", "CN=localhost", "-ext",
                "SAN=dns:localhost,ip:127.0.0.1", "-validity", "2", "-storetype", "PKCS12", "-keystore",
                store.toString(), "-storepass", "test-only").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "keytool: " + out);
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            ks.load(in, "test-only".toCharArray());
        }
        return ks;
    }

    static void writePem(KeyStore ks, Path certFile, Path keyFile) throws Exception {
        StringBuilder chain = new StringBuilder();
        for (Certificate c : ks.getCertificateChain("server")) {
            chain.append(pem("CERTIFICATE", c.getEncoded()));
        }
        Files.writeString(certFile, chain);
        Files.writeString(keyFile, pem("PRIVATE KEY", ks.getKey("server", "test-only".toCharArray()).getEncoded()));
    }

    static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    private static URI uri(String path) {
        return URI.create("https://127.0.0.1:" + address.getPort() + path);
    }

    @Test
    void httpClientFetchesSmallAndLargeFilesOverTls() throws Exception {
        HttpResponse<String> small = client.send(HttpRequest.newBuilder(uri("/small.txt")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, small.statusCode());
        assertEquals("hello, tls\n", small.body());
        assertEquals(HttpClient.Version.HTTP_1_1, small.version());
        HttpResponse<byte[]> large = client.send(HttpRequest.newBuilder(uri("/big.bin")).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, large.statusCode());
        assertArrayEquals(big, large.body());
    }

    @Test
    void curlWithTheCertificateAsCaFetchesAFile() throws Exception {
        assumeTrue(onPath("curl"), "curl is not installed");
        Path out = tmp.resolve("curl-out.bin");
        Result r = run("curl", "-sS", "--fail", "--cacert", cert.toString(), "-o", out.toString(),
                uri("/big.bin").toString());
        assertEquals(0, r.exit, r.output);
        assertArrayEquals(big, Files.readAllBytes(out));
    }

    @ParameterizedTest
    @ValueSource(strings = {"-tls1_3", "-tls1_2"})
    void opensslClientFetchesAFile(String version) throws Exception {
        assumeTrue(onPath("openssl"), "openssl is not installed");
        Result r = runWithInput("GET /small.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", "openssl",
                "s_client", "-connect", "127.0.0.1:" + address.getPort(), version, "-CAfile", cert.toString(),
                "-verify_return_error", "-quiet");
        assertEquals(0, r.exit, r.output);
        assertTrue(r.output.contains("HTTP/1.1 200"), r.output);
        assertTrue(r.output.contains("hello, tls"), r.output);
    }

    @Test
    void aPlainTextClientIsRefusedAndTheServerGoesOn() throws Exception {
        try (Socket s = new Socket(address.getAddress(), address.getPort())) {
            s.setSoTimeout(30_000);
            s.getOutputStream().write("GET /small.txt HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            byte[] answer = s.getInputStream().readAllBytes(); // the server closes it
            assertFalse(new String(answer, StandardCharsets.ISO_8859_1).contains("hello"));
        }
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(uri("/small.txt")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals("hello, tls\n", r.body());
    }

    @Test
    void beyondTheConnectionLimitATlsClientIsAnswered503() throws Exception {
        HttpServer.Config config = HttpServer.Config.defaults(new InetSocketAddress("127.0.0.1", 0),
                server.root()).withMaxConnections(1);
        try (HttpServer one = new HttpServer(ProactorConfig.builder().threads(2).build(), config,
                PemTls.serverContext(cert, key));
             SSLSocket held = tlsClient(one.localAddress())) {
            held.startHandshake(); // accepted and served: the only place is taken
            try (SSLSocket busy = tlsClient(one.localAddress())) {
                busy.getOutputStream().write("GET /small.txt HTTP/1.1\r\nHost: x\r\n\r\n"
                        .getBytes(StandardCharsets.US_ASCII));
                String answer = new String(busy.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
                assertTrue(answer.startsWith("HTTP/1.1 503 "), answer);
                assertTrue(answer.contains("Retry-After: 1\r\n"), answer);
            }
            assertEquals(1, one.rejectedConnections());
        }
    }

    private static SSLSocket tlsClient(InetSocketAddress at) throws IOException {
        SSLSocket s = (SSLSocket) clientTls.getSocketFactory().createSocket(at.getAddress(), at.getPort());
        s.setSoTimeout(30_000);
        return s;
    }

    @Test
    void pemFilesOfAnEcKeyLoadAndBadKeysAreExplained() throws Exception {
        KeyStore ec = generate("EC", tmp.resolve("ec"));
        Path c = tmp.resolve("ec-cert.pem");
        Path k = tmp.resolve("ec-key.pem");
        writePem(ec, c, k);
        assertEquals("TLS", PemTls.serverContext(c, k).getProtocol());
        Path pkcs1 = tmp.resolve("pkcs1.pem");
        Files.writeString(pkcs1, "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PemTls.serverContext(c, pkcs1));
        assertTrue(e.getMessage().contains("openssl pkcs8 -topk8 -nocrypt"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> PemTls.serverContext(k, k));
    }

    // ---------------------------------------------------------------- external tools

    private record Result(int exit, String output) {
    }

    private static boolean onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }

    private static Result run(String... cmd) throws Exception {
        return runWithInput(null, cmd);
    }

    private static Result runWithInput(String input, String... cmd) throws Exception {
        Process p = new ProcessBuilder(new ArrayList<>(List.of(cmd))).redirectErrorStream(true).start();
        if (input != null) {
            p.getOutputStream().write(input.getBytes(StandardCharsets.US_ASCII));
            p.getOutputStream().flush();
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "hang guard: " + cmd[0]);
        return new Result(p.exitValue(), out);
    }
}
