package dev.proactor.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proactor.spi.Engine;
import dev.proactor.spi.EngineChannel;
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
 * The drained-read rule of a socket engine that tries stream reads at start: a read started after the read that
 * drained the socket (took fewer bytes than it asked for), with no readiness of its input seen since (io_uring: no
 * look at the completions since), does not try the socket (the try would find nothing) and waits for readiness or
 * goes to the kernel instead: what a NIO.2 program does, its next read starting inside the callback of the last
 * one or of the write that answered it. It must still complete with every byte, also bytes already there, and with
 * an end of stream whose readiness was reported before the draining read. Reads after a poll that saw bytes, or
 * after a read that filled its buffer, are tried at once. The try and the rule hold for every
 * shape of buffers: one direct buffer, several (scattering and gathering), heap buffers. The engine is driven from
 * the test thread through the SPI (start, then polls of its wait strategy).
 */
public abstract class AbstractDrainedReadTest {

    /** Hang guard only. */
    private static final long GUARD_NANOS = TimeUnit.SECONDS.toNanos(30);

    private Engine engine;
    private ServerSocketChannel server;
    private SocketChannel peer;
    private EngineChannel channel;

    /**
     * The engine under test, with reads tried at start; skips the test (an assumption) where it is unavailable.
     *
     * @throws IOException if it cannot be made
     */
    protected abstract Engine openEngine() throws IOException;

    /**
     * Whether the engine learns of arriving bytes by readiness (a selector, epoll), so that only readiness ends a
     * drain; false for an engine that hands reads to the kernel (io_uring), where a look at the completions does.
     */
    protected boolean reportsReadiness() {
        return true;
    }

    @BeforeEach
    void setUp() throws Exception {
        engine = openEngine();
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

    /** The engine under test. */
    protected final Engine engine() {
        return engine;
    }

    /** The engine's channel of the connection's near end. */
    protected final EngineChannel channel() {
        return channel;
    }

    /** The connection's far end, in blocking mode. */
    protected final SocketChannel peer() {
        return peer;
    }

    protected final IoRequest read(ByteBuffer... into) {
        return new IoRequest(this).prepare(OpKind.READ, channel).buffers(into, 0, into.length);
    }

    private IoRequest write(ByteBuffer... from) {
        return new IoRequest(this).prepare(OpKind.WRITE, channel).buffers(from, 0, from.length);
    }

    private static ByteBuffer ascii(String text, boolean direct) {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        ByteBuffer b = direct ? ByteBuffer.allocateDirect(bytes.length) : ByteBuffer.allocate(bytes.length);
        return b.put(bytes).flip();
    }

    /** Polls until {@code request}, which is pending, completes. */
    protected final void await(IoRequest request) throws IOException {
        WaitStrategy wait = engine.waitStrategy();
        long deadline = System.nanoTime() + GUARD_NANOS;
        while (System.nanoTime() - deadline < 0) {
            wait.prepareToWait();
            if (wait.waitFor(TimeUnit.MILLISECONDS.toNanos(5)) > 0) {
                assertSame(request, wait.nextCompleted(), "the only pending request completes");
                return;
            }
        }
        fail("the request did not complete within the hang guard");
    }

    /** Reads {@code expected} (fewer bytes than the 64 asked for: the socket is drained), completed at start. */
    private void drainingRead(String expected) {
        ByteBuffer buffer = ByteBuffer.allocateDirect(64);
        assertEquals(StartResult.COMPLETED, engine.start(read(buffer)), "tried at start, the bytes were there");
        assertEquals(expected, PeerText.text(buffer));
    }

    /**
     * Reads {@code expected} the way a server's steady state does: a read waits (nothing there yet), the peer
     * sends, the read completes on readiness (io_uring: in the ring) with fewer bytes than asked for, draining the
     * socket; the engine watches the socket's input from then on (a selector keeps its input interest).
     */
    protected final void drainingReadOnReadiness(String expected, boolean direct) throws IOException {
        ByteBuffer buffer = direct ? ByteBuffer.allocateDirect(64) : ByteBuffer.allocate(64);
        IoRequest request = read(buffer);
        assertNotEquals(StartResult.COMPLETED, engine.start(request), "nothing to read yet");
        PeerText.send(peer, expected);
        await(request);
        assertNull(request.error());
        assertEquals(expected, PeerText.text(buffer));
    }

    @Test
    void aReadAfterADrainingReadIsNotTriedAndStillGetsBytesAlreadyThere() throws Exception {
        drainingReadOnReadiness("first", true);

        PeerText.send(peer, "second"); // in the socket before the next read starts; no poll has run since the drain
        ByteBuffer second = ByteBuffer.allocateDirect(64);
        IoRequest secondRead = read(second);
        assertNotEquals(StartResult.COMPLETED, engine.start(secondRead),
                "a read right after a drain waits instead of trying the socket");
        await(secondRead);
        assertNull(secondRead.error());
        assertEquals("second", PeerText.text(second));
    }

    @Test
    void anEndOfStreamReportedBeforeTheDrainingReadIsStillSeen() throws Exception {
        PeerText.send(peer, "last");
        peer.shutdownOutput();
        engine.waitStrategy().waitFor(0); // readiness of both the bytes and the end of stream, consumed
        drainingRead("last"); // and no further readiness will be reported

        IoRequest endRead = read(ByteBuffer.allocateDirect(64));
        if (engine.start(endRead) != StartResult.COMPLETED) {
            await(endRead);
        }
        assertNull(endRead.error());
        assertEquals(-1, endRead.bytes(), "the end of stream");
    }

    @Test
    void aReadAfterAPollIsTriedAgain() throws Exception {
        PeerText.send(peer, "one");
        drainingRead("one");

        PeerText.send(peer, "two");
        engine.waitStrategy().waitFor(0); // the engine looked at readiness since the drain
        ByteBuffer second = ByteBuffer.allocateDirect(64);
        assertEquals(StartResult.COMPLETED, engine.start(read(second)), "the socket is tried at start");
        assertEquals("two", PeerText.text(second));
    }

    @Test
    void aPollThatSawNothingForTheChannelDoesNotEndTheDrain() throws Exception {
        assumeTrue(reportsReadiness(), "the engine has no readiness events: a look at its completions ends a drain");
        drainingReadOnReadiness("first", true);
        engine.waitStrategy().waitFor(0); // a look at readiness (the pool's fairness poll) that finds nothing here

        PeerText.send(peer, "second"); // arrives after that look: only its readiness says so
        ByteBuffer second = ByteBuffer.allocateDirect(64);
        IoRequest secondRead = read(second);
        assertNotEquals(StartResult.COMPLETED, engine.start(secondRead),
                "a drained socket is read on readiness, not tried again after every poll");
        await(secondRead);
        assertNull(secondRead.error());
        assertEquals("second", PeerText.text(second));
    }

    @Test
    void aReadThatFilledItsBufferDoesNotMarkTheSocketDrained() throws Exception {
        PeerText.send(peer, "abcdefgh");
        ByteBuffer exact = ByteBuffer.allocateDirect(4);
        assertEquals(StartResult.COMPLETED, engine.start(read(exact)));
        assertEquals("abcd", PeerText.text(exact));

        ByteBuffer rest = ByteBuffer.allocateDirect(64);
        assertEquals(StartResult.COMPLETED, engine.start(read(rest)), "more may be there: tried at once");
        assertEquals("efgh", PeerText.text(rest));
    }

    @Test
    void heapAndScatteringReadsOfBytesAlreadyThereCompleteAtStart() throws Exception {
        PeerText.send(peer, "heap");
        ByteBuffer heap = ByteBuffer.allocate(64);
        assertEquals(StartResult.COMPLETED, engine.start(read(heap)), "a heap buffer is tried at start too");
        assertEquals("heap", PeerText.text(heap));

        PeerText.send(peer, "scatter");
        engine.waitStrategy().waitFor(0); // a poll that sees the bytes: the drain above does not count any more
        ByteBuffer first = ByteBuffer.allocateDirect(3);
        ByteBuffer second = ByteBuffer.allocateDirect(61);
        assertEquals(StartResult.COMPLETED, engine.start(read(first, second)), "so are several buffers");
        assertEquals("sca", PeerText.text(first));
        assertEquals("tter", PeerText.text(second));
    }

    @Test
    void heapAndGatheringWritesTheSocketTakesCompleteAtStart() throws Exception {
        IoRequest heap = write(ascii("heap", false));
        assertEquals(StartResult.COMPLETED, engine.start(heap), "a heap buffer is written at start");
        assertNull(heap.error());
        assertEquals(4, heap.bytes());
        assertEquals("heap", PeerText.receive(peer, 4));

        IoRequest gather = write(ascii("gat", true), ascii("her", false), ascii("ing", true));
        assertEquals(StartResult.COMPLETED, engine.start(gather), "so are several buffers");
        assertNull(gather.error());
        assertEquals(9, gather.bytes());
        assertEquals("gathering", PeerText.receive(peer, 9));
    }

    @Test
    void aHeapReadAfterADrainingHeapReadIsNotTriedAndStillGetsBytesAlreadyThere() throws Exception {
        drainingReadOnReadiness("first", false);

        PeerText.send(peer, "second");
        ByteBuffer second = ByteBuffer.allocate(64);
        IoRequest secondRead = read(second);
        assertNotEquals(StartResult.COMPLETED, engine.start(secondRead),
                "a read right after a drain waits instead of trying the socket, whatever its buffers");
        await(secondRead);
        assertNull(secondRead.error());
        assertEquals("second", PeerText.text(second));
    }
}
