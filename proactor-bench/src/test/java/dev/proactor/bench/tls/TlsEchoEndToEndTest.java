package dev.proactor.bench.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.bench.server.EchoServer;
import dev.proactor.bench.server.ServerOptions;
import dev.proactor.bench.server.TlsCredentials;
import dev.proactor.bench.server.netty.NettyTlsEchoServer;
import dev.proactor.bench.server.netty.NettyTransport;
import dev.proactor.bench.server.proactor.ProactorTlsEchoServer;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The TLS echo client against both TLS servers, in-process, for about a second per run with a few sessions:
 * bytes come back verified, TLS 1.3 with the JDK's cipher suites is negotiated, ping-pong records round trips.
 * No assertion on speed.
 */
class TlsEchoEndToEndTest {
    private static TlsCredentials credentials;
    private static TlsEchoClient client;

    @BeforeAll
    static void setUp() throws Exception {
        credentials = TlsCredentials.temporary();
        client = new TlsEchoClient(1, credentials);
    }

    @AfterAll
    static void tearDown() {
        if (client != null) {
            client.close();
        }
    }

    private static void echoesAndVerifies(EchoServer server, String name) throws Exception {
        InetSocketAddress address = server.start();
        try {
            InetSocketAddress target = new InetSocketAddress("127.0.0.1", address.getPort());
            TlsEchoResult window = client.run(target, new TlsEchoClient.RunSpec(Mode.WINDOW, 4, 1024, 4, 0, 1),
                    name, "nio", 1, () -> TlsEchoClient.cpuNanos(ProcessHandle.current().pid()));
            assertTrue(window.bytes() > 0, "window mode echoed nothing");
            // the server runs in this process here: its CPU is this process's, a number
            assertTrue(window.serverCpuSeconds() >= 0 && window.serverCpuUsPerMsg() >= 0, window.toString());
            assertTrue(window.clientCpuPercent() >= 0, window.toString());
            assertTrue(window.clientReadsPerMsg() > 0, "the client counted no plaintext chunk: " + window);
            assertEquals(0, window.latencyUs().getTotalCount(), "no round trips are recorded with a window");
            assertTrue(window.cipher().startsWith("TLS_"), window.cipher());
            assertTrue(TlsCredentials.defaultCipherSuites().contains(window.cipher()), window.cipher());

            TlsEchoResult pingPong = client.run(target,
                    new TlsEchoClient.RunSpec(Mode.PING_PONG, 3, 1000, 4, 0, 1), name, "nio", 1, () -> -1);
            assertTrue(Double.isNaN(pingPong.serverCpuPercent()), "an unknown server CPU is NaN, not a number");
            assertTrue(pingPong.bytes() > 0, "ping-pong echoed nothing");
            assertTrue(pingPong.latencyUs().getTotalCount() > 0, "no round trip recorded");
            assertTrue(pingPong.latencyPercentileUs(99) >= pingPong.latencyPercentileUs(50));
        } finally {
            server.stop();
        }
    }

    @Test
    void proactorTlsServerEchoesEveryByte() throws Exception {
        echoesAndVerifies(new ProactorTlsEchoServer(new ServerOptions("127.0.0.1", 0, 1, 0), credentials),
                "proactor-tls");
    }

    @Test
    void nettyTlsServerEchoesEveryByte() throws Exception {
        echoesAndVerifies(NettyTlsEchoServer.create(NettyTransport.NIO, new ServerOptions("127.0.0.1", 0, 1, 0),
                credentials), "netty-tls-nio");
    }
}
