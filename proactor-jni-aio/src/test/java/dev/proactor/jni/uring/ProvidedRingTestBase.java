package dev.proactor.jni.uring;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proactor.conformance.PeerText;
import dev.proactor.spi.EngineChannel;
import dev.proactor.spi.EngineSettings;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.OpKind;
import dev.proactor.spi.StartResult;
import dev.proactor.spi.WaitStrategy;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;

/**
 * What the tests of the io_uring engine's provided-buffer ring share: an engine whose stream reads are not tried at
 * start ({@code tryFirst=false}), so each goes to the ring, connections to a local server, and the engine driven
 * from the test thread through the SPI (start, then polls of its wait strategy), so the ring's counters are read on
 * the thread that reaps.
 */
abstract class ProvidedRingTestBase {


    /** Hang guard only. */
    static final long GUARD_NANOS = TimeUnit.SECONDS.toNanos(30);

    IoUringEngine engine;
    ServerSocketChannel server;
    final List<SocketChannel> peers = new ArrayList<>();
    final List<SocketChannel> clients = new ArrayList<>();

    IoUringEngine open(String providedBuffers) throws IOException {
        return open(providedBuffers, System.getProperty(IoUringFeatures.MULTISHOT_RECV_PROPERTY));
    }

    IoUringEngine open(String providedBuffers, String multishotRecv) throws IOException {
        return open(providedBuffers, multishotRecv, null);
    }

    /**
     * An engine with {@code providedBuffers} blocks in its ring, reads not tried at start, and a server to connect to.
     *
     * @param multishotRecv {@code proactor.uring.multishotRecv} for this engine, or null for its default (the run's
     *                      {@code -D}, as most tests take it: they hold whichever receive the reads use)
     * @param recvBundle    {@code proactor.uring.recvBundle} for this engine, or null for its default
     */
    IoUringEngine open(String providedBuffers, String multishotRecv, String recvBundle) throws IOException {
        IoUringEngineProvider provider = new IoUringEngineProvider();
        assumeTrue(provider.isAvailable(), () -> "io_uring unavailable: " + provider.unavailabilityCause());
        String multishotBefore = System.getProperty(IoUringFeatures.MULTISHOT_RECV_PROPERTY);
        System.setProperty(IoUringFeatures.TRY_FIRST_PROPERTY, "false");
        System.setProperty(IoUringFeatures.PROVIDED_BUFFERS_PROPERTY, providedBuffers);
        if (multishotRecv != null) {
            System.setProperty(IoUringFeatures.MULTISHOT_RECV_PROPERTY, multishotRecv);
        }
        if (recvBundle != null) {
            System.setProperty(IoUringFeatures.RECV_BUNDLE_PROPERTY, recvBundle);
        }
        try {
            engine = (IoUringEngine) provider.create(new EngineSettings("io_uring", "provided-buffers-test"));
        } finally {
            System.clearProperty(IoUringFeatures.TRY_FIRST_PROPERTY);
            System.clearProperty(IoUringFeatures.PROVIDED_BUFFERS_PROPERTY);
            System.clearProperty(IoUringFeatures.RECV_BUNDLE_PROPERTY);
            if (multishotBefore == null) {
                System.clearProperty(IoUringFeatures.MULTISHOT_RECV_PROPERTY);
            } else {
                System.setProperty(IoUringFeatures.MULTISHOT_RECV_PROPERTY, multishotBefore);
            }
        }
        assumeTrue(engine.providedBuffers() != null, "the kernel has no provided-buffer rings");
        server = ServerSocketChannel.open();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        return engine;
    }

    @AfterEach
    void tearDown() throws Exception {
        if (engine != null) {
            engine.close(); // closes the registered channels too
        }
        for (SocketChannel peer : peers) {
            peer.close();
        }
        if (server != null) {
            server.close();
        }
    }

    /**
     * A connection whose near end is registered with the engine; its peer is added to {@link #peers}, the near end
     * to {@link #clients}.
     */
    EngineChannel connect() throws IOException {
        SocketChannel client = SocketChannel.open(server.getLocalAddress());
        clients.add(client);
        peers.add(server.accept());
        return engine.register(client);
    }

    /** Waits (hang guard only) until the near end of connection {@code i} has bytes to read. */
    void awaitReadable(int i) throws Exception {
        awaitReadable(i, 1);
    }

    /** Waits (hang guard only) until the near end of connection {@code i} has {@code bytes} bytes or more to read. */
    void awaitReadable(int i, int bytes) throws Exception {
        long deadline = System.nanoTime() + GUARD_NANOS;
        while (clients.get(i).socket().getInputStream().available() < bytes) {
            assertTrue(System.nanoTime() - deadline < 0, "the peer's bytes did not arrive within the hang guard");
            Thread.sleep(1);
        }
    }

    IoRequest read(EngineChannel channel, ByteBuffer into) {
        return new IoRequest(this).prepare(OpKind.READ, channel).buffers(new ByteBuffer[] {into}, 0, 1);
    }

    static byte[] pattern(int length) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (i * 31 + 7);
        }
        return bytes;
    }

    /** Polls until every one of {@code requests}, all pending, completed. */
    void await(IoRequest... requests) throws IOException {
        List<IoRequest> waiting = new ArrayList<>(Arrays.asList(requests));
        WaitStrategy wait = engine.waitStrategy();
        long deadline = System.nanoTime() + GUARD_NANOS;
        while (!waiting.isEmpty() && System.nanoTime() - deadline < 0) {
            wait.prepareToWait();
            if (wait.waitFor(TimeUnit.MILLISECONDS.toNanos(5)) > 0) {
                for (IoRequest done = wait.nextCompleted(); done != null; done = wait.nextCompleted()) {
                    assertTrue(waiting.remove(done), "a pending request completes, once");
                }
            }
        }
        assertTrue(waiting.isEmpty(), "the requests did not complete within the hang guard");
    }

    /**
     * Starts a read into {@code into}, which goes to the ring, then sends {@code text} from the peer of connection
     * {@code i} and waits for the read; returns what it read.
     */
    String readFromRing(int i, EngineChannel channel, ByteBuffer into, String text) throws Exception {
        IoRequest request = read(channel, into);
        assertNotEquals(StartResult.COMPLETED, engine.start(request), "the read waits in the ring");
        PeerText.send(peers.get(i), text);
        await(request);
        assertNull(request.error());
        return PeerText.text(into);
    }

}
