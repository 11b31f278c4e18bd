package dev.proactor.examples.apps;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.proactor.examples.JdkEchoServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousSocketChannel;
import java.nio.channels.spi.AsynchronousChannelProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The unchanged {@link JdkEchoServer} (plain {@code java.nio.channels} code: a fixed-thread-pool
 * {@link java.nio.channels.AsynchronousChannelGroup}, accept, read, write) on whatever provider the JVM runs,
 * driven by many concurrent clients. Proves every byte a client sends comes back, in order, and that a
 * client's half-close reaches the server as end-of-stream (the server closes, the client sees EOF right after
 * the last echoed byte). Clients are blocking {@link Socket}s (independent of the provider) and
 * {@link AsynchronousSocketChannel}s in the default group (the provider on both ends).
 */
@ExtendWith(ProviderUnderTest.class)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@Tag("apps")
class JdkEchoServerAppTest {

    private static final int CLIENTS = 40;
    private static final int BYTES_PER_CLIENT = 512 * 1024;

    private static JdkEchoServer server;
    private static ExecutorService pool;

    @BeforeAll
    static void start() throws IOException {
        ProviderUnderTest.check();
        server = new JdkEchoServer(new InetSocketAddress("127.0.0.1", 0), 2, 16 * 1024);
        pool = Executors.newFixedThreadPool(2 * CLIENTS);
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
        if (pool != null) {
            pool.shutdownNow();
        }
    }

    /** Blocking socket clients, all at once: each gets its exact bytes back, then EOF after its half-close. */
    @Test
    void blockingSocketClientsGetEveryByteBack() throws Exception {
        List<Future<byte[]>> results = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
            byte[] data = TestData.bytes(1000 + c, BYTES_PER_CLIENT);
            results.add(pool.submit(() -> echoOverSocket(data)));
        }
        for (int c = 0; c < CLIENTS; c++) {
            assertArrayEquals(TestData.bytes(1000 + c, BYTES_PER_CLIENT), results.get(c).get(),
                    "client " + c + " got back other bytes than it sent");
        }
    }

    private byte[] echoOverSocket(byte[] data) throws Exception {
        try (Socket s = new Socket()) {
            s.connect(server.localAddress());
            Future<?> writer = pool.submit(() -> {
                OutputStream out = s.getOutputStream();
                out.write(data);
                out.flush();
                s.shutdownOutput();
                return null;
            });
            InputStream in = s.getInputStream();
            ByteArrayOutputStream received = new ByteArrayOutputStream(data.length);
            in.transferTo(received); // to EOF: the server closes once it read our EOF
            writer.get();
            return received.toByteArray();
        }
    }

    /**
     * Clients on {@link AsynchronousSocketChannel} with a null group (the provider's default group): connect,
     * write and read with futures, a pending read and a pending write at the same time, half-close with
     * {@code shutdownOutput}. Each gets its exact bytes back, then end-of-stream.
     */
    @Test
    void asynchronousChannelClientsGetEveryByteBack() throws Exception {
        List<CompletableFuture<byte[]>> results = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
            byte[] data = TestData.bytes(2000 + c, BYTES_PER_CLIENT);
            results.add(CompletableFuture.supplyAsync(() -> echoOverChannel(data), pool));
        }
        for (int c = 0; c < CLIENTS; c++) {
            assertArrayEquals(TestData.bytes(2000 + c, BYTES_PER_CLIENT), results.get(c).get(),
                    "client " + c + " got back other bytes than it sent");
        }
    }

    private byte[] echoOverChannel(byte[] data) {
        try (AsynchronousSocketChannel ch = AsynchronousSocketChannel.open()) {
            assertEquals(AsynchronousChannelProvider.provider(), ch.provider(), "client channel's provider");
            ch.connect(server.localAddress()).get();
            Future<?> writer = pool.submit(() -> {
                ByteBuffer out = ByteBuffer.wrap(data);
                while (out.hasRemaining()) {
                    ch.write(out).get();
                }
                ch.shutdownOutput();
                return null;
            });
            ByteBuffer in = ByteBuffer.allocate(data.length + 1); // one spare byte: any extra byte is an error
            while (ch.read(in).get() >= 0) {
                if (!in.hasRemaining()) {
                    break;
                }
            }
            writer.get();
            in.flip();
            byte[] received = new byte[in.remaining()];
            in.get(received);
            return received;
        } catch (Exception e) {
            throw new IllegalStateException("echo client failed", e);
        }
    }
}
