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

    private static String roundTrip(Socket s, String text) throws IOException {
        s.getOutputStream().write(text.getBytes());
        return new String(s.getInputStream().readNBytes(text.length()));
    }
}
