package dev.proactor.bench.server;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManagerFactory;

/**
 * The key and certificate of the TLS echo benchmark: a self-signed EC certificate for {@code localhost} made at run
 * time with the JDK's {@code keytool} (nothing is committed), in a PKCS12 file that the server processes load.
 * Every side uses the JDK provider, TLS 1.3 only, and the JDK's default cipher suites.
 *
 * <p>A server process finds the file in the system properties {@value #KEYSTORE_PROPERTY} and
 * {@value #PASSWORD_PROPERTY}; without them (a server started by hand) it makes its own.
 */
public final class TlsCredentials {

    /** System property naming the PKCS12 file a TLS server loads. */
    public static final String KEYSTORE_PROPERTY = "bench.tls.keystore";
    /** System property with that file's password. */
    public static final String PASSWORD_PROPERTY = "bench.tls.password";
    /** The only protocol enabled on every side. */
    public static final String PROTOCOL = "TLSv1.3";

    private static final String ALIAS = "echo";
    private static final int KEYTOOL_TIMEOUT_SECONDS = 60;

    private final KeyStore keyStore;
    private final char[] password;

    private TlsCredentials(KeyStore keyStore, char[] password) {
        this.keyStore = keyStore;
        this.password = password.clone();
    }

    /**
     * Makes a new key pair and self-signed certificate into {@code file} (which must not exist) with keytool.
     *
     * @param file     the PKCS12 file to create
     * @param password its password (at least 6 characters, keytool's minimum)
     * @throws IOException when keytool cannot be run or fails (its output is in the message)
     */
    public static void generate(Path file, String password) throws IOException {
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        List<String> cmd = List.of(keytool.toString(), "-genkeypair", "-alias", ALIAS, "-keyalg", "EC",
                "-groupname", "secp256r1", "-sigalg", "SHA256withECDSA", "-dname", "CN=localhost",
                "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-validity", "7", "-storetype", "PKCS12",
                "-keystore", file.toString(), "-storepass", password, "-keypass", password, "-noprompt");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        try {
            if (!p.waitFor(KEYTOOL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("keytool did not finish within " + KEYTOOL_TIMEOUT_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new IOException("interrupted while waiting for keytool", e);
        }
        if (p.exitValue() != 0 || !Files.isRegularFile(file)) {
            throw new IOException("keytool failed (exit " + p.exitValue() + "): " + output);
        }
    }

    /**
     * Loads a file made by {@link #generate}.
     *
     * @param file     the PKCS12 file
     * @param password its password
     * @return the credentials
     * @throws IOException when the file cannot be read or is not such a key store
     */
    public static TlsCredentials load(Path file, String password) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(in, password.toCharArray());
            if (!ks.isKeyEntry(ALIAS)) {
                throw new IOException(file + " has no key entry '" + ALIAS + "'");
            }
            return new TlsCredentials(ks, password.toCharArray());
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot load key store " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * The credentials a server process uses: the file named by the system properties, else a fresh one in a
     * temporary directory (deleted when the JVM exits).
     *
     * @return the credentials
     * @throws IOException when the file cannot be made or read
     */
    public static TlsCredentials forServerProcess() throws IOException {
        String file = System.getProperty(KEYSTORE_PROPERTY);
        String password = System.getProperty(PASSWORD_PROPERTY);
        if (file != null) {
            if (password == null) {
                throw new IOException("-D" + KEYSTORE_PROPERTY + " is set but -D" + PASSWORD_PROPERTY + " is not");
            }
            return load(Path.of(file), password);
        }
        return temporary();
    }

    /**
     * Fresh credentials in a temporary directory, deleted when the JVM exits.
     *
     * @return the credentials
     * @throws IOException when keytool fails
     */
    public static TlsCredentials temporary() throws IOException {
        Path dir = Files.createTempDirectory("bench-tls");
        Path file = dir.resolve("echo.p12");
        String password = "bench-" + Long.toHexString(System.nanoTime());
        try {
            generate(file, password);
            return load(file, password);
        } finally {
            Files.deleteIfExists(file);
            Files.deleteIfExists(dir);
        }
    }

    /**
     * Key managers holding the private key and certificate.
     *
     * @return an initialised factory
     */
    public KeyManagerFactory keyManagers() {
        try {
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(keyStore, password);
            return kmf;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("key store loaded but unusable", e);
        }
    }

    /**
     * Trust managers trusting exactly this certificate (for the client).
     *
     * @return an initialised factory
     */
    public TrustManagerFactory trustManagers() {
        try {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            Certificate cert = keyStore.getCertificate(ALIAS);
            trust.setCertificateEntry(ALIAS, cert);
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            return tmf;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot build a trust store from the certificate", e);
        }
    }

    /**
     * A JDK server context for {@link javax.net.ssl.SSLEngine}s; use {@link #serverEngine} for each connection.
     *
     * @return the context
     */
    public SSLContext serverContext() {
        try {
            SSLContext ctx = SSLContext.getInstance(PROTOCOL);
            ctx.init(keyManagers().getKeyManagers(), null, null);
            return ctx;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("JDK has no " + PROTOCOL + " context", e);
        }
    }

    /**
     * A JDK client context that trusts exactly this certificate (for in-process clients).
     *
     * @return the context
     */
    public SSLContext clientContext() {
        try {
            SSLContext ctx = SSLContext.getInstance(PROTOCOL);
            ctx.init(null, trustManagers().getTrustManagers(), null);
            return ctx;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("JDK has no " + PROTOCOL + " context", e);
        }
    }

    /**
     * A server-mode engine of {@code context} with only TLS 1.3 enabled and the default cipher suites.
     *
     * @param context from {@link #serverContext()}
     * @return the engine
     */
    public static SSLEngine serverEngine(SSLContext context) {
        SSLEngine engine = context.createSSLEngine();
        engine.setUseClientMode(false);
        engine.setEnabledProtocols(new String[] {PROTOCOL});
        return engine;
    }

    /**
     * The JDK's default cipher suites, in its order: given to Netty too, whose own default list differs.
     *
     * @return the suite names
     */
    public static List<String> defaultCipherSuites() {
        try {
            return List.of(SSLContext.getDefault().getDefaultSSLParameters().getCipherSuites());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("JDK has no default SSL context", e);
        }
    }
}
