package dev.proactor.examples.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.sshd.client.SshClient;
import org.apache.sshd.client.keyverifier.AcceptAllServerKeyVerifier;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.io.nio2.Nio2ServiceFactory;
import org.apache.sshd.common.io.nio2.Nio2Session;
import org.apache.sshd.common.session.helpers.AbstractSession;
import org.apache.sshd.sftp.client.SftpClient;
import org.apache.sshd.sftp.client.SftpClientFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Apache MINA SSHD, server and client both on sshd's NIO2 transport over whatever provider the JVM runs: an SFTP
 * session moves 50 MB of random data each way byte-exact. Upload: the SHA-256 of what the client wrote equals
 * that of the file the server stored, and the server's {@code stat} size. Download: the SHA-256 and count of
 * what the client read equal those of the file on the server. Both ends' I/O sessions are asserted to be
 * {@link Nio2Session}s.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class SshdSftpAppTest {

    private static final long FIFTY_MB = 50L * 1024 * 1024;
    private static final Duration HANG_GUARD = Duration.ofSeconds(30);

    @TempDir
    static Path dir;
    private static SshTestServer server;
    private static SshClient client;

    @BeforeAll
    static void start() throws Exception {
        ProviderUnderTest.check();
        server = SshTestServer.start(dir, null);
        client = SshClient.setUpDefaultClient();
        client.setServerKeyVerifier(AcceptAllServerKeyVerifier.INSTANCE); // loopback, a key made for this test
        client.start();
        assertInstanceOf(Nio2ServiceFactory.class, client.getIoServiceFactory(), "client transport");
    }

    @AfterAll
    static void stop() throws Exception {
        if (client != null) {
            client.stop();
        }
        if (server != null) {
            server.close();
        }
    }

    private static ClientSession session() throws Exception {
        ClientSession session = client.connect(SshTestServer.USER, "127.0.0.1", server.port()).verify(HANG_GUARD)
                .getSession();
        session.addPasswordIdentity(SshTestServer.PASSWORD);
        session.auth().verify(HANG_GUARD);
        assertInstanceOf(Nio2Session.class, session.getIoSession(), "client I/O session");
        assertFalse(server.sshd().getActiveSessions().isEmpty(), "server sessions");
        for (AbstractSession s : server.sshd().getActiveSessions()) {
            assertInstanceOf(Nio2Session.class, s.getIoSession(), "server I/O session");
        }
        return session;
    }

    /** 50 MB written through SFTP arrive on the server's disk byte-exact. */
    @Test
    void fiftyMegabyteUploadIsByteExact() throws Exception {
        String sent;
        try (ClientSession session = session();
             SftpClient sftp = SftpClientFactory.instance().createSftpClient(session)) {
            try (OutputStream out = sftp.write("upload.bin")) {
                sent = TestData.write(11, FIFTY_MB, out);
            }
            assertEquals(FIFTY_MB, sftp.stat("upload.bin").getSize(), "size the server reports");
        }
        TestData.Digest stored = TestData.digest(server.root().resolve("upload.bin"));
        assertEquals(FIFTY_MB, stored.size(), "bytes stored");
        assertEquals(sent, stored.sha256(), "SHA-256 of the stored file");
    }

    /** 50 MB on the server's disk read through SFTP arrive byte-exact. */
    @Test
    void fiftyMegabyteDownloadIsByteExact() throws Exception {
        String expected;
        try (OutputStream out = Files.newOutputStream(server.root().resolve("download.bin"))) {
            expected = TestData.write(12, FIFTY_MB, out);
        }
        TestData.Digest got;
        try (ClientSession session = session();
             SftpClient sftp = SftpClientFactory.instance().createSftpClient(session);
             InputStream in = sftp.read("download.bin")) {
            got = TestData.digest(in);
        }
        assertEquals(FIFTY_MB, got.size(), "bytes read");
        assertEquals(expected, got.sha256(), "SHA-256 of what was read");
    }
}
