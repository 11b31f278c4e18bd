package dev.proactor.examples.http;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.Collection;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * A server {@link SSLContext} from PEM files as nginx takes them: an X.509 certificate chain (the server's
 * certificate first) and an unencrypted PKCS#8 private key ({@code -----BEGIN PRIVATE KEY-----}, RSA or EC).
 * Parsed with the JDK only.
 */
public final class PemTls {

    private static final String BEGIN_KEY = "-----BEGIN PRIVATE KEY-----";
    private static final String END_KEY = "-----END PRIVATE KEY-----";

    private PemTls() {
    }

    /**
     * Loads the chain and the key into a new TLS context.
     *
     * @throws IOException              if a file cannot be read
     * @throws IllegalArgumentException if a file is not what it should be (the message says what and how to fix)
     */
    public static SSLContext serverContext(Path certificateChain, Path privateKey) throws IOException {
        Certificate[] chain = readChain(certificateChain);
        PrivateKey key = readKey(privateKey);
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            char[] password = new char[0];
            store.setKeyEntry("server", key, password, chain);
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(store, password);
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(kmf.getKeyManagers(), null, null);
            return ctx;
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("the key in " + privateKey + " does not fit the certificate in "
                    + certificateChain + ": " + e.getMessage(), e);
        }
    }

    static Certificate[] readChain(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            Collection<? extends Certificate> certs = CertificateFactory.getInstance("X.509").generateCertificates(in);
            if (certs.isEmpty()) {
                throw new IllegalArgumentException("no certificate in " + file);
            }
            return certs.toArray(new Certificate[0]);
        } catch (java.security.cert.CertificateException e) {
            throw new IllegalArgumentException("not a PEM X.509 certificate chain: " + file + ": " + e.getMessage(),
                    e);
        }
    }

    static PrivateKey readKey(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.US_ASCII);
        int begin = text.indexOf(BEGIN_KEY);
        int end = text.indexOf(END_KEY);
        if (begin < 0 || end < begin) {
            String hint = text.contains("ENCRYPTED PRIVATE KEY") ? "it is encrypted"
                    : text.contains("BEGIN RSA PRIVATE KEY") || text.contains("BEGIN EC PRIVATE KEY")
                    ? "it is in the traditional (PKCS#1/SEC1) format" : "no '" + BEGIN_KEY + "' block";
            throw new IllegalArgumentException("not an unencrypted PKCS#8 private key: " + file + " (" + hint
                    + "; convert with: openssl pkcs8 -topk8 -nocrypt -in KEY -out KEY.pk8.pem)");
        }
        byte[] der;
        try {
            der = Base64.getMimeDecoder().decode(text.substring(begin + BEGIN_KEY.length(), end));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("bad base64 in " + file + ": " + e.getMessage(), e);
        }
        for (String algorithm : new String[] {"RSA", "EC", "RSASSA-PSS"}) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
            } catch (InvalidKeySpecException | java.security.NoSuchAlgorithmException e) {
                // try the next algorithm
            }
        }
        throw new IllegalArgumentException("not an RSA or EC PKCS#8 private key: " + file);
    }
}
