package dev.proactor.nio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.fail;

import dev.proactor.spi.EngineChannel;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.OpKind;
import dev.proactor.spi.StartResult;
import dev.proactor.spi.WaitStrategy;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A stream read started after the read that drained the socket, with no select in between (what a NIO.2 program
 * does: its next read starts inside the callback of the last one), waits for readiness instead of making a
 * system call that would find nothing; it must still complete with every byte, and with the end of stream.
 * The engine is driven directly from the test thread.
 */
class NioDrainedReadTest {

    /** Hang guard only. */
    private static final long GUARD_NANOS = TimeUnit.SECONDS.toNanos(30);

    private NioEngine engine;
    private ServerSocketChannel server;
    private SocketChannel peer;
    private EngineChannel channel;

    @BeforeEach
    void setUp() throws Exception {
        engine = new NioEngine(Selector.open(), (selector, onReady, beforeSelect, done) ->
                new SelectorWaitStrategy("test", selector, onReady, beforeSelect, done));
        server = ServerSocketChannel.open();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        SocketChannel client = SocketChannel.open(server.getLocalAddress());
        peer = server.accept();
        channel = engine.register(client);
    }

    @AfterEach
    void tearDown() throws Exception {
        engine.close(); // closes the registered channel too
        peer.close();
        server.close();
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

    /** Selects until {@code request}, which is pending, completes. */
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
    void aReadAfterADrainingReadWaitsForReadinessAndStillGetsBytesAlreadyThere() throws Exception {
        send("first");
        ByteBuffer first = ByteBuffer.allocate(64);
        assertEquals(StartResult.COMPLETED, engine.start(read(first)));
        assertEquals("first", text(first)); // fewer bytes than asked: the socket is drained

        send("second"); // in the socket before the next read starts; no select has run since the drain
        ByteBuffer second = ByteBuffer.allocate(64);
        IoRequest secondRead = read(second);
        assertNotEquals(StartResult.COMPLETED, engine.start(secondRead),
                "a read right after a drain waits for readiness instead of trying the socket");
        await(secondRead);
        assertNull(secondRead.error());
        assertEquals("second", text(second));
    }

    @Test
    void anEndOfStreamAfterADrainingReadIsSeen() throws Exception {
        send("last");
        peer.shutdownOutput();
        ByteBuffer first = ByteBuffer.allocate(64);
        assertEquals(StartResult.COMPLETED, engine.start(read(first)));
        assertEquals("last", text(first));

        IoRequest endRead = read(ByteBuffer.allocate(64));
        if (engine.start(endRead) != StartResult.COMPLETED) {
            await(endRead);
        }
        assertNull(endRead.error());
        assertEquals(-1, endRead.bytes(), "the end of stream");
    }

    @Test
    void aReadAfterASelectTriesTheSocketAgain() throws Exception {
        send("one");
        ByteBuffer first = ByteBuffer.allocate(64);
        assertEquals(StartResult.COMPLETED, engine.start(read(first)));
        assertEquals("one", text(first));

        send("two");
        engine.waitStrategy().waitFor(0); // a select since the drain
        ByteBuffer second = ByteBuffer.allocate(64);
        assertEquals(StartResult.COMPLETED, engine.start(read(second)), "the socket is tried at start");
        assertEquals("two", text(second));
    }

    @Test
    void aFullReadDoesNotMarkTheSocketDrained() throws Exception {
        send("abcdefgh");
        ByteBuffer exact = ByteBuffer.allocate(4);
        assertEquals(StartResult.COMPLETED, engine.start(read(exact)));
        assertEquals("abcd", text(exact));

        ByteBuffer rest = ByteBuffer.allocate(64);
        assertEquals(StartResult.COMPLETED, engine.start(read(rest)), "more may be there: tried at once");
        assertEquals("efgh", text(rest));
    }
}
