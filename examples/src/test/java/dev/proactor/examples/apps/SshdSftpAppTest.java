package dev.proactor.examples.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.sshd.client.SshClient;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.sftp.client.SftpClient;
import org.apache.sshd.sftp.client.SftpClientFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Apache MINA SSHD, server and client both on sshd's NIO2 transport over whatever provider the JVM runs: an SFTP
 * session moves 50 MB of random data each way byte-exact. Upload: the SHA-256 of what the client wrote equals
 * that of the file the server stored, and the server's {@code stat} size. Download: the SHA-256 and count of
 * what the client read equal those of the file on the server. Both ends' I/O sessions are asserted to be
 * sshd's NIO2 ones ({@link SshTestServer#connect}). And 8 concurrent sessions each move their own 2 MB file up and
 * back byte-exact.
 */
@ExtendWith(ProviderUnderTest.class)
@Timeout(value = 90, unit = TimeUnit.SECONDS)
@Tag("apps")
class SshdSftpAppTest {

    private static final long FIFTY_MB = 50L * 1024 * 1024;

    @TempDir
    static Path dir;
    private static SshTestServer server;
    private static SshClient client;

    @BeforeAll
    static void start() throws Exception {
        ProviderUnderTest.check();
        server = SshTestServer.start(dir, null);
        client = server.newClient();
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
        return server.connect(client);
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

    /**
     * 8 SSH sessions at once, each with its own SFTP channel, upload 2 MB and read them back: every file is stored
     * and read back byte-exact.
     */
    @Test
    void concurrentSessionsEachMoveTheirOwnFileByteExact() throws Exception {
        int sessions = 8;
        long size = 2L * 1024 * 1024;
        ExecutorService pool = Executors.newFixedThreadPool(sessions);
        try {
            List<Future<String>> results = new ArrayList<>();
            for (int i = 0; i < sessions; i++) {
                int n = i;
                results.add(pool.submit(() -> {
                    String name = "parallel-" + n + ".bin";
                    try (ClientSession session = session();
                         SftpClient sftp = SftpClientFactory.instance().createSftpClient(session)) {
                        String sent;
                        try (OutputStream out = sftp.write(name)) {
                            sent = TestData.write(100 + n, size, out);
                        }
                        TestData.Digest back;
                        try (InputStream in = sftp.read(name)) {
                            back = TestData.digest(in);
                        }
                        assertEquals(size, back.size(), "bytes read back from " + name);
                        assertEquals(sent, back.sha256(), "SHA-256 of " + name + " read back");
                        return sent;
                    }
                }));
            }
            for (int i = 0; i < sessions; i++) {
                String sent = results.get(i).get();
                TestData.Digest stored = TestData.digest(server.root().resolve("parallel-" + i + ".bin"));
                assertEquals(size, stored.size(), "bytes stored for session " + i);
                assertEquals(sent, stored.sha256(), "SHA-256 stored for session " + i);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
