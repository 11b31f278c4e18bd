package dev.proactor.conformance;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Self-signed test certificates made at run time with the JDK's {@code keytool} (never committed): a server key
 * for {@code localhost}/{@code 127.0.0.1} (RSA or EC) and contexts that trust it, or trust another key only.
 * Each key is made once per test JVM.
 */
public final class TlsTestCertificates {

    private static final char[] PASSWORD = "test-only".toCharArray();
    private static TlsTestCertificates rsa;
    private static TlsTestCertificates ec;
    private static TlsTestCertificates stranger;

    private final KeyStore keyStore;
    private final Path dir;

    private TlsTestCertificates(String keyalg) throws Exception {
        dir = Files.createTempDirectory("proactor-tls-test");
        dir.toFile().deleteOnExit();
        Path store = dir.resolve("key.p12");
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool")
                .toString(), "-genkeypair", "-noprompt", "-alias", "server", "-keyalg", keyalg, "-dname",
                "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-validity", "2", "-storetype", "PKCS12",
                "-keystore", store.toString(), "-storepass", new String(PASSWORD)));
        if (keyalg.equals("RSA")) {
            cmd.addAll(List.of("-keysize", "2048"));
        }
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("keytool failed: " + out);
        }
        keyStore = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            keyStore.load(in, PASSWORD);
        }
        Files.delete(store);
    }

    /** The RSA server key. */
    public static synchronized TlsTestCertificates rsa() throws Exception {
        if (rsa == null) {
            rsa = new TlsTestCertificates("RSA");
        }
        return rsa;
    }

    /** The EC server key. */
    public static synchronized TlsTestCertificates ec() throws Exception {
        if (ec == null) {
            ec = new TlsTestCertificates("EC");
        }
        return ec;
    }

    /** Another key nobody trusts (for "untrusted certificate" tests). */
    public static synchronized TlsTestCertificates stranger() throws Exception {
        if (stranger == null) {
            stranger = new TlsTestCertificates("EC");
        }
        return stranger;
    }

    public X509Certificate certificate() throws Exception {
        return (X509Certificate) keyStore.getCertificate("server");
    }

    public PrivateKey privateKey() throws Exception {
        return (PrivateKey) keyStore.getKey("server", PASSWORD);
    }

    /** A context presenting this key. */
    public SSLContext serverContext() throws Exception {
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keyStore, PASSWORD);
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(kmf.getKeyManagers(), null, null);
        return ctx;
    }

    /** A context trusting only this key's certificate. */
    public SSLContext clientContext() throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("server", certificate());
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, tmf.getTrustManagers(), null);
        return ctx;
    }

    /** The certificate as PEM. */
    public String certificatePem() throws Exception {
        return pem("CERTIFICATE", certificate().getEncoded());
    }

    /** The private key as unencrypted PKCS#8 PEM. */
    public String privateKeyPem() throws Exception {
        return pem("PRIVATE KEY", privateKey().getEncoded());
    }

    /** The whole chain (here one self-signed certificate). */
    public Certificate[] chain() throws Exception {
        return keyStore.getCertificateChain("server");
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }
}
