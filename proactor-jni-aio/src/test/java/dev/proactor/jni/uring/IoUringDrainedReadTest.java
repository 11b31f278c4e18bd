package dev.proactor.jni.uring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

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
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * With stream reads tried at start ({@code tryFirst}), a read started after the read that drained the socket, with
 * no reap in between (what a NIO.2 program does: its next read starts inside the callback of the last one), goes
 * to the ring untried: the try would find nothing. It must still complete with every byte, and with the end of
 * stream. The engine is driven directly from the test thread.
 */
class IoUringDrainedReadTest {

    /** Hang guard only. */
    private static final long GUARD_NANOS = TimeUnit.SECONDS.toNanos(30);

    private IoUringEngine engine;
    private ServerSocketChannel server;
    private SocketChannel peer;
    private EngineChannel channel;

    @BeforeEach
    void setUp() throws Exception {
        IoUringEngineProvider provider = new IoUringEngineProvider();
        assumeTrue(provider.isAvailable(), () -> "io_uring unavailable: " + provider.unavailabilityCause());
        engine = (IoUringEngine) provider.create(new EngineSettings("io_uring", "drained-read-test"));
        assumeTrue(engine.tryFirst(), "reads are not tried at start in this configuration");
        server = ServerSocketChannel.open();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        SocketChannel client = SocketChannel.open(server.getLocalAddress());
        peer = server.accept();
        channel = engine.register(client);
    }

    @AfterEach
    void tearDown() throws Exception {
        if (engine != null) {
            engine.close(); // closes the registered channel too
        }
        if (server != null) {
            peer.close();
            server.close();
        }
    }

    private IoRequest read(ByteBuffer into) {
        return new IoRequest(this).prepare(OpKind.READ, channel).buffer(into);
    }

    private void send(String text) throws IOException {
        peer.write(ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII)));
    }

    private static String text(ByteBuffer buffer) {
        return StandardCharsets.US_ASCII.decode(buffer.flip()).toString();
    }

    /** Waits until {@code request}, which is in the ring, completes. */
    private void await(IoRequest request) throws IOException {
        WaitStrategy wait = engine.waitStrategy();
        long deadline = System.nanoTime() + GUARD_NANOS;
        while (System.nanoTime() - deadline < 0) {
            if (wait.waitFor(TimeUnit.MILLISECONDS.toNanos(5)) > 0) {
                assertSame(request, wait.nextCompleted(), "the only pending request completes");
                return;
            }
        }
        fail("the request did not complete within the hang guard");
    }

    @Test
    void aReadAfterADrainingReadGoesToTheRingUntriedAndStillGetsBytesAlreadyThere() throws Exception {
        send("first");
        ByteBuffer first = ByteBuffer.allocateDirect(64);
        assertEquals(StartResult.COMPLETED, engine.start(read(first)), "tried at start, the bytes were there");
        assertEquals("first", text(first)); // fewer bytes than asked: the socket is drained

        send("second"); // in the socket before the next read starts; no reap has run since the drain
        ByteBuffer second = ByteBuffer.allocateDirect(64);
        IoRequest secondRead = read(second);
        assertEquals(StartResult.PENDING, engine.start(secondRead),
                "a read right after a drain goes to the ring instead of trying the socket");
        await(secondRead);
        assertNull(secondRead.error());
        assertEquals("second", text(second));
    }

    @Test
    void anEndOfStreamAfterADrainingReadIsSeen() throws Exception {
        send("last");
        peer.shutdownOutput();
        ByteBuffer first = ByteBuffer.allocateDirect(64);
        assertEquals(StartResult.COMPLETED, engine.start(read(first)));
        assertEquals("last", text(first));

        IoRequest endRead = read(ByteBuffer.allocateDirect(64));
        if (engine.start(endRead) != StartResult.COMPLETED) {
            await(endRead);
        }
        assertNull(endRead.error());
        assertEquals(-1, endRead.bytes(), "the end of stream");
    }

    @Test
    void aReadAfterAReapTriesTheSocketAgain() throws Exception {
        send("one");
        ByteBuffer first = ByteBuffer.allocateDirect(64);
        assertEquals(StartResult.COMPLETED, engine.start(read(first)));
        assertEquals("one", text(first));

        send("two");
        engine.waitStrategy().waitFor(0); // the leader looked at the completions since the drain
        ByteBuffer second = ByteBuffer.allocateDirect(64);
        assertEquals(StartResult.COMPLETED, engine.start(read(second)), "the socket is tried at start");
        assertEquals("two", text(second));
    }
}
