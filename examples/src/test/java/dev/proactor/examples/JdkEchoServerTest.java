package dev.proactor.examples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class JdkEchoServerTest {

    @Test
    void echoesEveryByteBack() throws Exception {
        byte[] data = new byte[200_000];
        new Random(3).nextBytes(data);
        try (JdkEchoServer server = new JdkEchoServer(new InetSocketAddress("127.0.0.1", 0), 2, 4096);
             Socket s = new Socket()) {
            s.connect(server.localAddress());
            Thread writer = new Thread(() -> {
                try {
                    s.getOutputStream().write(data);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            writer.start();
            InputStream in = s.getInputStream();
            assertArrayEquals(data, in.readNBytes(data.length));
            writer.join();
        }
    }
}
