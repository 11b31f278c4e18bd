package dev.proactor.examples.apps;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.proactor.examples.JdkEchoServer;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.sshd.client.SshClient;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.client.session.forward.ExplicitPortForwardingTracker;
import org.apache.sshd.common.util.net.SshdSocketAddress;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three applications chained on whatever provider the JVM runs: plain sockets connect to an SSH local port
 * forward (MINA's client listening with its NIO2 acceptor), the tunnel crosses an SSH session to the MINA server,
 * which connects out (its NIO2 connector) to the unchanged {@link JdkEchoServer}. Proves 16 concurrent tunnelled
 * connections each get their exact 256 KB back.
 */
@ExtendWith(ProviderUnderTest.class)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@Tag("apps")
class SshdPortForwardingAppTest {

    private static final int CONNECTIONS = 16;
    private static final int BYTES_PER_CONNECTION = 256 * 1024;

    @TempDir
    static Path dir;
    private static JdkEchoServer echo;
    private static SshTestServer server;
    private static SshClient client;
    private static ExecutorService pool;

    @BeforeAll
    static void start() throws Exception {
        ProviderUnderTest.check();
        echo = new JdkEchoServer(new InetSocketAddress("127.0.0.1", 0), 2, 16 * 1024);
        server = SshTestServer.start(dir, null);
        client = server.newClient();
        pool = Executors.newFixedThreadPool(2 * CONNECTIONS);
    }

    @AfterAll
    static void stop() throws Exception {
        if (pool != null) {
            pool.shutdownNow();
        }
        if (client != null) {
            client.stop();
        }
        if (server != null) {
            server.close();
        }
        if (echo != null) {
            echo.close();
        }
    }

    /** Every tunnelled connection gets back exactly the bytes it sent. */
    @Test
    void tunnelledConnectionsGetEveryByteBack() throws Exception {
        InetSocketAddress target = echo.localAddress();
        try (ClientSession session = server.connect(client);
             ExplicitPortForwardingTracker tunnel = session.createLocalPortForwardingTracker(
                     new SshdSocketAddress("127.0.0.1", 0), new SshdSocketAddress("127.0.0.1", target.getPort()))) {
            int localPort = tunnel.getBoundAddress().getPort();
            assertNotEquals(0, localPort, "bound port of the tunnel");
            InetSocketAddress entry = new InetSocketAddress("127.0.0.1", localPort);
            List<Future<byte[]>> results = new ArrayList<>();
            for (int c = 0; c < CONNECTIONS; c++) {
                byte[] data = TestData.bytes(3000 + c, BYTES_PER_CONNECTION);
                results.add(pool.submit(() -> roundTrip(entry, data)));
            }
            for (int c = 0; c < CONNECTIONS; c++) {
                assertArrayEquals(TestData.bytes(3000 + c, BYTES_PER_CONNECTION), results.get(c).get(),
                        "tunnelled connection " + c);
            }
        }
    }

    private byte[] roundTrip(InetSocketAddress entry, byte[] data) throws Exception {
        try (Socket s = new Socket()) {
            s.connect(entry);
            s.setSoTimeout(30_000); // hang guard
            Future<?> writer = pool.submit(() -> {
                OutputStream out = s.getOutputStream();
                out.write(data);
                out.flush();
                return null;
            });
            byte[] received = s.getInputStream().readNBytes(data.length);
            writer.get();
            return received;
        }
    }
}
