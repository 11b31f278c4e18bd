package dev.proactor.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.ProactorConfig;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The echo server on its Acceptor: echoes several clients and counts their traffic in the exit totals, with its
 * connections' buffers direct or on the heap ({@code --heap}).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EchoServerTest {

    @ParameterizedTest(name = "heap buffers: {0}")
    @ValueSource(booleans = {false, true})
    void echoesEveryClientAndReportsTheTrafficInItsTotals(boolean heapBuffers) throws Exception {
        ProactorConfig config = ProactorConfig.builder().engine("nio").threads(2).build();
        EchoServer server = new EchoServer(config, new InetSocketAddress("127.0.0.1", 0), 1024, heapBuffers, 0);
        try {
            for (int i = 0; i < 3; i++) {
                try (Socket s = new Socket("127.0.0.1", server.localAddress().getPort())) {
                    s.setSoTimeout(30_000);
                    assertEquals("ping " + i, roundTrip(s, "ping " + i));
                }
            }
            // Each connection ends when the server reads the client's end of stream, which it only reads after
            // its write's callback: waiting for that keeps server.close() from ending the last one first (its
            // write, already received by the client, would then be counted after the totals were taken).
            long guard = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!server.totals().contains("connections closed=3") && System.nanoTime() < guard) {
                Thread.sleep(5);
            }
        } finally {
            server.close();
        }
        String totals = server.totals();
        assertTrue(totals.contains("connections closed=3"), totals);
        assertTrue(totals.contains("bytes in=18") && totals.contains("bytes out=18"), totals);
        assertTrue(totals.contains("completions dispatched="), totals);
    }

    /**
     * The buffer of a connection that ended is given to the next connection instead of a new one: a server that
     * accepts thousands of connections a second would otherwise allocate (and zero) one each, and direct memory is
     * only freed by the collector. Each client waits for the server to count its connection closed, by when the
     * buffer is back.
     */
    @ParameterizedTest(name = "heap buffers: {0}")
    @ValueSource(booleans = {false, true})
    void aClosedConnectionsBufferServesTheNextConnection(boolean heapBuffers) throws Exception {
        ProactorConfig config = ProactorConfig.builder().engine("nio").threads(2).build();
        try (EchoServer server = new EchoServer(config, new InetSocketAddress("127.0.0.1", 0), 1024, heapBuffers,
                0)) {
            for (int i = 0; i < 5; i++) {
                try (Socket s = new Socket("127.0.0.1", server.localAddress().getPort())) {
                    s.setSoTimeout(30_000);
                    assertEquals("ping " + i, roundTrip(s, "ping " + i));
                }
                long guard = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (!server.totals().contains("connections closed=" + (i + 1)) && System.nanoTime() < guard) {
                    Thread.sleep(5);
                }
            }
            assertEquals(1, server.buffersAllocated(), "one buffer served the five connections one after another");
        }
    }

    private static String roundTrip(Socket s, String text) throws IOException {
        s.getOutputStream().write(text.getBytes());
        return new String(s.getInputStream().readNBytes(text.length()));
    }
}
