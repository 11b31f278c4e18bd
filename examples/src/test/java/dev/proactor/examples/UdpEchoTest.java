package dev.proactor.examples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.ProactorConfig;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UdpEchoTest {

    private static ProactorConfig config() {
        return ProactorConfig.fromSystemProperties().toBuilder().threads(2).build();
    }

    @Test
    void echoesEveryDatagramToItsSender() throws Exception {
        try (UdpEchoServer server = new UdpEchoServer(config(), new InetSocketAddress("127.0.0.1", 0), 4);
             DatagramSocket socket = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            socket.setSoTimeout(200);
            Random random = new Random(3);
            int[] sizes = {0, 1, 7, 512, 1472, 9000, UdpEchoServer.MAX_DATAGRAM};
            for (int round = 0; round < 30; round++) {
                byte[] sent = new byte[sizes[round % sizes.length]];
                random.nextBytes(sent);
                assertArrayEquals(sent, roundTrip(socket, server.localAddress(), sent), "round " + round);
            }
            // Counted in the send completion, which may run after the client already has the echo.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (server.echoed() < 30 && System.nanoTime() - deadline < 0) {
                Thread.sleep(5);
            }
            assertTrue(server.echoed() >= 30, "echoed " + server.echoed());
        }
    }

    /** Sends until the echo comes back (UDP may drop, even on loopback under load); returns the echo. */
    private static byte[] roundTrip(DatagramSocket socket, InetSocketAddress server, byte[] sent) throws Exception {
        byte[] buf = new byte[UdpEchoServer.MAX_DATAGRAM + 1];
        for (int attempt = 0; attempt < 25; attempt++) {
            socket.send(new DatagramPacket(sent, sent.length, server));
            DatagramPacket p = new DatagramPacket(buf, buf.length);
            try {
                socket.receive(p);
            } catch (SocketTimeoutException e) {
                continue;
            }
            assertEquals(server, p.getSocketAddress());
            return Arrays.copyOf(p.getData(), p.getLength());
        }
        throw new AssertionError("no echo of a " + sent.length + "-byte datagram after 25 attempts");
    }

    @Test
    void clientMeasuresRoundTrips() throws Exception {
        try (UdpEchoServer server = new UdpEchoServer(config(), new InetSocketAddress("127.0.0.1", 0), 4)) {
            UdpEchoClient.Options o = new UdpEchoClient.Options(server.localAddress(), 3, 100, 1, 0, 1, 200);
            UdpEchoClient.Result r = new UdpEchoClient(o).run();
            assertTrue(r.roundTrips() > 0, "round trips: " + r.roundTrips());
            assertTrue(r.messagesPerSecond() > 0);
            assertTrue(r.p50Micros() <= r.p99Micros());
            assertTrue(r.lost() <= r.retransmitted());
        }
    }

    @Test
    void clientRejectsDatagramsTooSmallForTheSequenceNumber() {
        assertThrows(IllegalArgumentException.class, () -> new UdpEchoClient.Options(
                new InetSocketAddress("127.0.0.1", 9), 1, 7, 1, 0, 1, 200));
        assertThrows(IllegalArgumentException.class, () -> new UdpEchoClient.Options(
                new InetSocketAddress("127.0.0.1", 9), 1, 70_000, 1, 0, 1, 200));
    }
}
