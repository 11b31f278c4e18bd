package dev.proactor.jni.uring;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proactor.conformance.PeerText;
import dev.proactor.jni.IoUring;
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
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Stream reads through a channel's multishot receive ({@code proactor.uring.multishotRecv}, {@link
 * IoUringMultishotRecv}): one receive stays armed across reads; what arrives with no read pending is held and the
 * next read takes it at start, in order, the end of the stream after the bytes; what a read's buffers cannot take
 * stays held; a slow reader's receive is cancelled at the held limit and other channels still receive; a close gives
 * the held blocks back; a receive ended by an empty ring is armed again; a cancelled read leaves the receive armed.
 * Reads are not tried at start ({@code tryFirst=false}). The engine is driven from the test thread through the SPI
 * (start, then polls of its wait strategy), so the CQEs are reaped, and the ring's counters read, on this thread.
 */
class IoUringMultishotRecvTest {

    /** Hang guard only. */
    private static final long GUARD_NANOS = TimeUnit.SECONDS.toNanos(30);

    private IoUringEngine engine;
    private ServerSocketChannel server;
    private final List<SocketChannel> peers = new ArrayList<>();
    private final List<IoUringChannel> channels = new ArrayList<>();
    /** Requests that came out of the wait strategy while no test waited for them: none may. */
    private final List<IoRequest> strays = new ArrayList<>();

    /**
     * The engine with the test thread for its only own thread: only such a thread arms a multishot receive
     * ({@link IoUringOpsContext#mayArmMultishot}), and it submits what it writes itself.
     */
    private void open(String providedBuffers, String multishotRecv) throws IOException {
        IoUringEngineProvider provider = new IoUringEngineProvider();
        assumeTrue(provider.isAvailable(), () -> "io_uring unavailable: " + provider.unavailabilityCause());
        String[] names = {IoUringFeatures.TRY_FIRST_PROPERTY, IoUringFeatures.PROVIDED_BUFFERS_PROPERTY,
            IoUringFeatures.MULTISHOT_RECV_PROPERTY};
        String[] values = {"false", providedBuffers, multishotRecv};
        String[] before = new String[names.length];
        for (int i = 0; i < names.length; i++) {
            before[i] = System.setProperty(names[i], values[i]);
        }
        try {
            Thread testThread = Thread.currentThread();
            engine = (IoUringEngine) provider.create(new EngineSettings("io_uring", "multishot-recv-test",
                    () -> Thread.currentThread() == testThread));
        } finally {
            for (int i = 0; i < names.length; i++) {
                if (before[i] == null) {
                    System.clearProperty(names[i]);
                } else {
                    System.setProperty(names[i], before[i]);
                }
            }
        }
        assumeTrue(engine.providedBuffers() != null, "the kernel has no provided-buffer rings");
        assumeTrue(multishotRecv.equals("off") || IoUring.isSingleIssuerSupported(),
                "the kernel has no multishot receive (Linux 6.0+)");
        server = ServerSocketChannel.open();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    }

    @AfterEach
    void tearDown() throws Exception {
        if (engine != null) {
            for (IoUringChannel channel : channels) {
                channel.close(); // cancels its armed receive
            }
            engine.quiesce(); // reaps the receives' last CQEs, as the core's close does
            engine.close();
        }
        for (SocketChannel peer : peers) {
            peer.close();
        }
        if (server != null) {
            server.close();
        }
        assertTrue(strays.isEmpty(), "no request completed unasked: " + strays);
    }

    /** A connection whose near end is registered with the engine; its peer is added to {@link #peers}. */
    private IoUringChannel connect() throws IOException {
        SocketChannel client = SocketChannel.open(server.getLocalAddress());
        peers.add(server.accept());
        IoUringChannel channel = (IoUringChannel) engine.register(client);
        channels.add(channel);
        return channel;
    }

    private IoRequest read(EngineChannel channel, ByteBuffer into) {
        return new IoRequest(this).prepare(OpKind.READ, channel).buffers(new ByteBuffer[] {into}, 0, 1);
    }

    private IoUringBufferRing ring() {
        return engine.providedBuffers();
    }

    /** The channel's multishot receive (null before the first read armed one). */
    private static IoUringMultishotRecv multishot(IoUringChannel channel) {
        synchronized (channel) {
            return channel.input.multishot;
        }
    }

    private static boolean armed(IoUringChannel channel) {
        synchronized (channel) {
            return channel.input.multishot != null && channel.input.multishot.armed();
        }
    }

    private static int slot(IoUringChannel channel) {
        synchronized (channel) {
            return channel.input.multishot.slot();
        }
    }

    /** Polls the wait strategy once (reaping what the ring has); what completes is collected. */
    private List<IoRequest> pollOnce() throws IOException {
        List<IoRequest> done = new ArrayList<>();
        WaitStrategy wait = engine.waitStrategy();
        wait.prepareToWait();
        if (wait.waitFor(TimeUnit.MILLISECONDS.toNanos(5)) > 0) {
            for (IoRequest r = wait.nextCompleted(); r != null; r = wait.nextCompleted()) {
                done.add(r);
            }
        }
        return done;
    }

    /** Polls (reaping CQEs, none of which may complete a request) until {@code condition} holds. */
    private void pollUntil(BooleanSupplier condition, String what) throws IOException {
        long deadline = System.nanoTime() + GUARD_NANOS;
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() - deadline < 0, what + ": not within the hang guard");
            strays.addAll(pollOnce());
        }
    }

    /** Polls until every one of {@code requests}, all pending, completed. */
    private void await(IoRequest... requests) throws IOException {
        List<IoRequest> waiting = new ArrayList<>(Arrays.asList(requests));
        long deadline = System.nanoTime() + GUARD_NANOS;
        while (!waiting.isEmpty()) {
            assertTrue(System.nanoTime() - deadline < 0, "the requests did not complete within the hang guard");
            for (IoRequest done : pollOnce()) {
                if (!waiting.remove(done)) {
                    strays.add(done);
                }
            }
        }
    }

    /** Starts a read that waits, sends {@code text} from peer {@code i}, waits for the read; what it read. */
    private String readWaiting(int i, IoUringChannel channel, ByteBuffer into, String text) throws Exception {
        IoRequest request = read(channel, into);
        assertEquals(StartResult.PENDING, engine.start(request), "the read waits for the receive");
        PeerText.send(peers.get(i), text);
        await(request);
        assertNull(request.error());
        return PeerText.text(into);
    }

    /** Starts a read that must finish at start with what is held; what it read (its count checked). */
    private String readHeld(IoUringChannel channel, ByteBuffer into) {
        IoRequest request = read(channel, into);
        assertEquals(StartResult.COMPLETED, engine.start(request), "the read takes what is held, at start");
        assertNull(request.error());
        String text = PeerText.text(into);
        assertEquals(text.length(), request.bytes());
        return text;
    }

    private static byte[] pattern(int length) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (i * 31 + 7);
        }
        return bytes;
    }

    @Test
    void bytesArrivingBetweenReadsAreHeldAndTheNextReadTakesThemAtStartInOrder() throws Exception {
        open("4", "heap");
        IoUringChannel channel = connect();
        assertEquals("one", readWaiting(0, channel, ByteBuffer.allocate(64), "one"));
        assertTrue(armed(channel), "the receive stays armed after the read");
        int slot = slot(channel);

        PeerText.send(peers.get(0), "two");
        pollUntil(() -> ring().held() == 1, "the bytes that came with no read pending are held");
        assertEquals("two", readHeld(channel, ByteBuffer.allocate(64)));
        assertEquals(0, ring().held(), "the read's block went back to the ring");

        assertEquals("three", readWaiting(0, channel, ByteBuffer.allocate(64), "three"));
        assertEquals(slot, slot(channel), "one receive, armed once: no SQE per read");
        assertEquals(3, ring().blocksUsed(), "each arrival through a block, given back");
    }

    @Test
    void whatTheCallersBufferCannotTakeStaysHeldForTheNextReads() throws Exception {
        open("4", "heap");
        IoUringChannel channel = connect();
        byte[] sent = pattern(100);
        IoRequest first = read(channel, ByteBuffer.allocate(30));
        assertEquals(StartResult.PENDING, engine.start(first));
        peers.get(0).write(ByteBuffer.wrap(sent));
        await(first);
        assertEquals(30, first.bytes());
        ByteBuffer received = ByteBuffer.allocate(sent.length);
        received.put(first.buffers()[0].flip());
        assertEquals(1, ring().held(), "the block's remainder is held");

        IoRequest second = read(channel, ByteBuffer.allocate(30));
        assertEquals(StartResult.COMPLETED, engine.start(second), "taken from the held block at start");
        assertEquals(30, second.bytes());
        received.put(second.buffers()[0].flip());
        IoRequest third = read(channel, ByteBuffer.allocate(64));
        assertEquals(StartResult.COMPLETED, engine.start(third));
        assertEquals(40, third.bytes(), "the rest of the block");
        received.put(third.buffers()[0].flip());
        assertArrayEquals(sent, received.array(), "every byte, in order");
        assertEquals(0, ring().held(), "the emptied block went back");
    }

    @Test
    void theEndOfTheStreamComesAfterTheBytesHeldBeforeIt() throws Exception {
        open("4", "heap");
        IoUringChannel channel = connect();
        assertEquals("x", readWaiting(0, channel, ByteBuffer.allocate(64), "x"));
        PeerText.send(peers.get(0), "tail");
        peers.get(0).shutdownOutput();
        pollUntil(() -> !armed(channel), "the end of the stream ends the receive");
        assertEquals("tail", readHeld(channel, ByteBuffer.allocate(64)), "the bytes first");

        IoRequest end = read(channel, ByteBuffer.allocate(64));
        assertEquals(StartResult.COMPLETED, engine.start(end), "the end held, taken at start");
        assertNull(end.error());
        assertEquals(-1, end.bytes());

        IoRequest again = read(channel, ByteBuffer.allocate(64));
        if (engine.start(again) != StartResult.COMPLETED) {
            await(again);
        }
        assertNull(again.error());
        assertEquals(-1, again.bytes(), "the end of the stream again, as the socket says");
        assertEquals(0, ring().held());
    }

    @Test
    void aSlowReadersReceiveIsCancelledAtTheHeldLimitAndOtherChannelsStillReceive() throws Exception {
        open("4", "heap");
        IoUringChannel slow = connect();
        IoUringChannel other = connect();
        StringBuilder sent = new StringBuilder(); // what the slow reader has not read yet
        assertEquals("a0", readWaiting(0, slow, ByteBuffer.allocate(64), "a0"));
        for (int i = 1; i <= IoUringMultishotRecv.HELD_LIMIT; i++) {
            int held = i;
            PeerText.send(peers.get(0), "a" + i);
            sent.append("a").append(i);
            pollUntil(() -> ring().held() == held, "arrival " + i + " held");
        }
        pollUntil(() -> !armed(slow), "the receive is cancelled at the limit");
        for (int i = 1 + IoUringMultishotRecv.HELD_LIMIT; i < 10; i++) {
            PeerText.send(peers.get(0), "a" + i); // waits in the socket
            sent.append("a").append(i);
        }
        strays.addAll(pollOnce());
        assertEquals(IoUringMultishotRecv.HELD_LIMIT, ring().held(), "no more held than the limit");

        for (int i = 0; i < 4; i++) {
            assertEquals("b" + i, readWaiting(1, other, ByteBuffer.allocate(64), "b" + i),
                    "another channel still receives through the ring");
        }

        StringBuilder received = new StringBuilder();
        while (received.length() < sent.length()) {
            IoRequest request = read(slow, ByteBuffer.allocate(64));
            if (engine.start(request) != StartResult.COMPLETED) {
                await(request);
            }
            assertNull(request.error());
            assertTrue(request.bytes() > 0);
            received.append(PeerText.text(request.buffers()[0]));
        }
        assertEquals(sent.toString(), received.toString(), "every byte in order: held, then from the socket");
    }

    @Test
    void closingAChannelGivesItsHeldBlocksBack() throws Exception {
        open("2", "heap");
        IoUringChannel armedOne = connect();
        IoUringChannel cancelledOne = connect();
        assertEquals("0", readWaiting(0, armedOne, ByteBuffer.allocate(64), "0"));
        PeerText.send(peers.get(0), "held");
        pollUntil(() -> ring().held() == 1, "one block held, the receive armed");
        assertTrue(armed(armedOne));
        armedOne.close();
        assertEquals(0, ring().held(), "the close gave the held block back");
        pollUntil(() -> !armed(armedOne), "the close cancelled the armed receive");

        assertEquals("0", readWaiting(1, cancelledOne, ByteBuffer.allocate(64), "0"));
        for (int i = 1; i <= IoUringMultishotRecv.HELD_LIMIT; i++) {
            int held = i;
            PeerText.send(peers.get(1), "h" + i);
            pollUntil(() -> ring().held() == held, "arrival " + i + " held");
        }
        pollUntil(() -> !armed(cancelledOne), "cancelled at the limit");
        cancelledOne.close();
        assertEquals(0, ring().held(), "the close gave both held blocks back");

        IoUringChannel fresh = connect();
        for (int i = 0; i < 4; i++) {
            assertEquals("f" + i, readWaiting(2, fresh, ByteBuffer.allocate(64), "f" + i),
                    "every block is back in the ring");
        }
        assertEquals(0, ring().shortages(), "no receive found the ring empty");
    }

    @Test
    void aReceiveEndedByAnEmptyRingIsArmedAgainByTheNextRead() throws Exception {
        open("1", "heap");
        IoUringChannel holder = connect();
        IoUringChannel starved = connect();
        assertEquals("h0", readWaiting(0, holder, ByteBuffer.allocate(64), "h0"));
        assertEquals("s0", readWaiting(1, starved, ByteBuffer.allocate(64), "s0"));
        PeerText.send(peers.get(0), "h1");
        pollUntil(() -> ring().held() == 1, "the holder holds the ring's one block");

        PeerText.send(peers.get(1), "s1"); // no read pending, no block: the receive ends with ENOBUFS
        pollUntil(() -> !armed(starved), "the empty ring ends the starved receive");
        assertEquals(1, ring().shortages());
        assertFalse(multishot(starved).hasHeld(), "nothing to hold: the bytes stay in the socket");

        // The next read arms it again; the ring is still empty, so that receive ends too, and the read gets its
        // bytes on its own (as without the ring).
        IoRequest read = read(starved, ByteBuffer.allocate(64));
        assertEquals(StartResult.PENDING, engine.start(read));
        await(read);
        assertNull(read.error());
        assertEquals("s1", PeerText.text(read.buffers()[0]));
        assertEquals(2, ring().shortages());

        assertEquals("h1", readHeld(holder, ByteBuffer.allocate(64)));
        assertEquals("s2", readWaiting(1, starved, ByteBuffer.allocate(64), "s2"));
        assertTrue(armed(starved), "armed again, with the block back in the ring");
        assertEquals(2, ring().shortages());
    }

    @Test
    void aCancelledReadLeavesTheReceiveArmedAndWhatArrivesGoesToTheNextRead() throws Exception {
        open("4", "heap");
        IoUringChannel channel = connect();
        assertEquals("0", readWaiting(0, channel, ByteBuffer.allocate(64), "0"));
        int slot = slot(channel);
        IoRequest request = read(channel, ByteBuffer.allocate(64));
        assertEquals(StartResult.PENDING, engine.start(request));
        CancellationException reason = new CancellationException("test");
        assertTrue(engine.cancel(request, reason), "a read waiting for the receive has nothing in the ring");
        assertSame(reason, request.error());
        assertTrue(armed(channel));

        PeerText.send(peers.get(0), "later");
        pollUntil(() -> ring().held() == 1, "held for the next read");
        assertEquals("later", readHeld(channel, ByteBuffer.allocate(64)));
        assertEquals(slot, slot(channel), "the same receive");
    }

    /**
     * A read started by a thread whose SQEs another thread submits (here the engine's submitter; in a program, a user
     * thread's first read) receives once, with no multishot receive: the kernel would run that receive's work on
     * the submitting thread at every arrival. The next read, started by a thread of the engine's own, arms it.
     */
    @Test
    void aReadStartedByAThreadThatDoesNotSubmitReceivesOnceWithoutArmingTheReceive() throws Exception {
        open("4", "heap");
        IoUringChannel channel = connect();
        IoRequest foreign = read(channel, ByteBuffer.allocate(64));
        StartResult[] started = new StartResult[1];
        Thread other = new Thread(() -> started[0] = engine.start(foreign), "not-the-engines");
        other.start();
        other.join();
        assertEquals(StartResult.PENDING, started[0]);
        assertFalse(armed(channel), "no multishot receive armed by that thread");
        PeerText.send(peers.get(0), "one");
        await(foreign);
        assertNull(foreign.error());
        assertEquals("one", PeerText.text(foreign.buffers()[0]));
        assertEquals("two", readWaiting(0, channel, ByteBuffer.allocate(64), "two"));
        assertTrue(armed(channel), "armed by the engine's own thread");
    }

    /**
     * A read its starting thread blocks for, on a thread that may be the last that polls (the NIO.2 provider's future
     * read in a handler): bytes that came after the previous read sit in a CQE nobody reaps, so the read takes the
     * receive's CQEs itself and finishes at start, in order; nothing polls the engine in between.
     */
    @Test
    void anAwaitedReadTakesTheBytesOfCqesNobodyReapedAtStart() throws Exception {
        open("4", "heap");
        IoUringChannel channel = connect();
        assertEquals("one", readWaiting(0, channel, ByteBuffer.allocate(64), "one"));
        PeerText.send(peers.get(0), "two");
        PeerText.send(peers.get(0), "three");
        StringBuilder received = new StringBuilder();
        while (received.length() < "twothree".length()) {
            IoRequest awaited = read(channel, ByteBuffer.allocate(64)).awaited(true);
            assertEquals(StartResult.COMPLETED, engine.start(awaited), "no poll needed: " + received);
            assertNull(awaited.error());
            received.append(PeerText.text(awaited.buffers()[0]));
        }
        assertEquals("twothree", received.toString());
        assertEquals("four", readWaiting(0, channel, ByteBuffer.allocate(64), "four"), "the next read as usual");
        assertEquals(0, ring().held());
    }

    /** An awaited read with nothing arrived: the receive is cancelled and the read waits as a request of its own. */
    @Test
    void anAwaitedReadWithNothingArrivedWaitsOnItsOwn() throws Exception {
        open("4", "heap");
        IoUringChannel channel = connect();
        assertEquals("one", readWaiting(0, channel, ByteBuffer.allocate(64), "one"));
        IoRequest awaited = read(channel, ByteBuffer.allocate(64)).awaited(true);
        assertEquals(StartResult.PENDING, engine.start(awaited));
        assertFalse(armed(channel), "the receive was cancelled; the read is a request of its own");
        PeerText.send(peers.get(0), "late");
        await(awaited);
        assertNull(awaited.error());
        assertEquals("late", PeerText.text(awaited.buffers()[0]));
        assertEquals("again", readWaiting(0, channel, ByteBuffer.allocate(64), "again"));
        assertTrue(armed(channel), "the next read arms a receive again");
    }

    @Test
    void inModeAllADirectReadIsCopiedOutOfABlock() throws Exception {
        open("4", "all");
        IoUringChannel channel = connect();
        assertEquals("direct", readWaiting(0, channel, ByteBuffer.allocateDirect(64), "direct"));
        assertEquals(1, ring().blocksUsed(), "received through a block");
        assertTrue(armed(channel));
        PeerText.send(peers.get(0), "more");
        pollUntil(() -> ring().held() == 1, "held");
        assertEquals("more", readHeld(channel, ByteBuffer.allocateDirect(64)));
    }

    @Test
    void inModeHeapADirectReadTakesWhatIsHeldFirst() throws Exception {
        open("4", "heap");
        IoUringChannel channel = connect();
        assertEquals("heap", readWaiting(0, channel, ByteBuffer.allocate(64), "heap"));
        PeerText.send(peers.get(0), "held");
        pollUntil(() -> ring().held() == 1, "held");
        assertEquals("held", readHeld(channel, ByteBuffer.allocateDirect(64)), "not the socket: the held bytes");
        assertEquals("next", readWaiting(0, channel, ByteBuffer.allocateDirect(64), "next"),
                "waits for the armed receive, never a receive of its own");
    }

    @Test
    void modeOffArmsNothing() throws Exception {
        open("4", "off");
        IoUringChannel channel = connect();
        assertEquals("one", readWaiting(0, channel, ByteBuffer.allocate(64), "one"));
        assertNull(multishot(channel));
    }

    @Test
    void aStreamReadInSmallPiecesGetsEveryByteInOrder() throws Exception {
        open("4", "heap");
        IoUringChannel channel = connect();
        byte[] sent = pattern(1 << 20);
        SocketChannel peer = peers.get(0);
        Thread writer = new Thread(() -> {
            try {
                ByteBuffer b = ByteBuffer.wrap(sent);
                while (b.hasRemaining()) {
                    ByteBuffer piece = b.slice(b.position(), Math.min(b.remaining(), 1 + b.position() % 7000));
                    while (piece.hasRemaining()) {
                        peer.write(piece);
                    }
                    b.position(b.position() + piece.capacity());
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }, "multishot-test-writer");
        writer.start();
        ByteBuffer received = ByteBuffer.allocate(sent.length);
        while (received.hasRemaining()) {
            ByteBuffer into = ByteBuffer.allocate(Math.min(received.remaining(), 1000));
            IoRequest request = read(channel, into);
            if (engine.start(request) != StartResult.COMPLETED) {
                await(request);
            }
            assertNull(request.error());
            assertTrue(request.bytes() > 0, "no end of stream before the last byte");
            received.put(into.flip());
        }
        writer.join(TimeUnit.NANOSECONDS.toMillis(GUARD_NANOS));
        assertArrayEquals(sent, received.array(), "every byte, in order");
        assertNotEquals(0, ring().blocksUsed());
        channel.close();
        assertEquals(0, ring().held(), "nothing held after the close");
    }
}
