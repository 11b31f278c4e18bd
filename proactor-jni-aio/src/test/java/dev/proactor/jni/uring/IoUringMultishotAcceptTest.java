package dev.proactor.jni.uring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proactor.jni.engine.AcceptedSocket;
import dev.proactor.spi.EngineSettings;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.OpKind;
import dev.proactor.spi.StartResult;
import dev.proactor.spi.WaitStrategy;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The io_uring engine's multishot accept ({@code proactor.uring.multishotAccept}, {@link IoUringMultishotAccept}),
 * driven request by request with the test thread as the leader: connections that arrive while no accept is pending
 * are held and handed out by the next accepts at start, each exactly once; a burst larger than the accepts loses
 * none; the armed accept is cancelled when {@code HELD_LIMIT} connections are held; a cancelled accept ends at once
 * and the connection that comes next is kept for the next accept; closing the listener resets what it held, as the
 * kernel resets what a closed listener left in its backlog; an awaited accept collects the armed accept's CQEs at
 * start; a thread that does not submit its own SQEs arms nothing. Accepts are never tried at start here
 * ({@code proactor.uring.tryFirst=false}), so every connection goes through the armed accept. Waits are hang guards.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class IoUringMultishotAcceptTest {

    private static final long GUARD_NANOS = TimeUnit.SECONDS.toNanos(30);

    private IoUringEngine engine;
    private ServerSocketChannel jdk;
    private IoUringChannel listener;
    private final List<Socket> clients = new ArrayList<>();
    private final List<Object> accepted = new ArrayList<>();

    @AfterEach
    void tearDown() throws Exception {
        for (Object handle : accepted) {
            engine.discard(handle);
        }
        if (engine != null) {
            listener.close();
            engine.quiesce(); // the armed accept's cancel and last CQE
            engine.close();
        }
        for (Socket c : clients) {
            c.close();
        }
        if (jdk != null) {
            jdk.close();
        }
    }

    private void open() throws IOException {
        IoUringEngineProvider provider = new IoUringEngineProvider();
        assumeTrue(provider.isAvailable(), () -> "io_uring unavailable: " + provider.unavailabilityCause());
        Thread testThread = Thread.currentThread();
        String multishotBefore = System.getProperty(IoUringFeatures.MULTISHOT_ACCEPT_PROPERTY);
        System.setProperty(IoUringFeatures.TRY_FIRST_PROPERTY, "false");
        System.setProperty(IoUringFeatures.MULTISHOT_ACCEPT_PROPERTY, "true"); // whatever the run's setting
        try {
            assumeTrue(IoUringFeatures.fromProperties(false).multishotAccept(), "the kernel lacks multishot accept");
            engine = (IoUringEngine) provider.create(new EngineSettings(IoUringWaitStrategy.NAME, "multishot-test",
                    () -> Thread.currentThread() == testThread));
        } finally {
            System.clearProperty(IoUringFeatures.TRY_FIRST_PROPERTY);
            if (multishotBefore == null) {
                System.clearProperty(IoUringFeatures.MULTISHOT_ACCEPT_PROPERTY);
            } else {
                System.setProperty(IoUringFeatures.MULTISHOT_ACCEPT_PROPERTY, multishotBefore); // the run's again
            }
        }
        jdk = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1024);
        listener = (IoUringChannel) engine.register(jdk);
    }

    @Test
    void connectionsWithoutAPendingAcceptAreHeldAndHandedOutAtTheNextAccepts() throws Exception {
        open();
        IoRequest first = acceptRequest();
        assertEquals(StartResult.PENDING, engine.start(first), "nothing queued: the multishot accept is armed");
        Set<SocketAddress> expected = new HashSet<>();
        expected.add(connect());
        Set<SocketAddress> seen = new HashSet<>();
        awaitCompletion(first, seen);
        int more = IoUringMultishotAccept.HELD_LIMIT;
        for (int i = 0; i < more - 1; i++) {
            expected.add(connect());
        }
        leadUntil(() -> held() == more - 1, "the other connections are held");
        assertTrue(multishot().armed(), "below the limit the accept stays armed");
        expected.add(connect());
        leadUntil(() -> held() == more, "the last one is held too");
        leadUntil(() -> !multishot().armed(), "the armed accept is cancelled at the limit");
        for (int i = 0; i < more; i++) {
            IoRequest next = acceptRequest();
            assertEquals(StartResult.COMPLETED, engine.start(next), "a held connection is taken at start");
            take(next, seen);
        }
        assertEquals(expected, seen, "every connection accepted once, with its peer address");
        IoRequest last = acceptRequest();
        assertEquals(StartResult.PENDING, engine.start(last), "nothing held: armed again");
        assertTrue(multishot().armed());
        SocketAddress late = connect();
        awaitCompletion(last, seen);
        assertTrue(seen.contains(late), "the re-armed accept takes the next connection");
    }

    @Test
    void aBurstLargerThanThePendingAcceptsLosesNoConnectionAndAcceptsNoneTwice() throws Exception {
        open();
        int connections = 64;
        Set<SocketAddress> expected = new HashSet<>();
        Set<SocketAddress> seen = new HashSet<>();
        IoRequest pending = acceptRequest();
        assertEquals(StartResult.PENDING, engine.start(pending));
        for (int i = 0; i < connections; i++) {
            expected.add(connect());
        }
        long deadline = System.nanoTime() + GUARD_NANOS;
        while (seen.size() < connections) {
            assertTrue(System.nanoTime() - deadline < 0, "hang guard: " + seen.size() + " accepted");
            if (pending == null) {
                pending = acceptRequest();
                if (engine.start(pending) == StartResult.COMPLETED) {
                    take(pending, seen);
                    pending = null;
                }
                continue;
            }
            for (IoRequest done : lead(TimeUnit.MILLISECONDS.toNanos(5))) {
                assertSame(pending, done, "only the pending accept completes");
                take(done, seen);
                pending = null;
            }
        }
        assertEquals(expected, seen, "each connection of the burst accepted once");
        assertEquals(0, held(), "nothing left held");
    }

    @Test
    void aCancelledAcceptEndsAtOnceAndTheNextConnectionWaitsForTheNextAccept() throws Exception {
        open();
        IoRequest cancelled = acceptRequest();
        assertEquals(StartResult.PENDING, engine.start(cancelled));
        lead(0); // the multishot accept is in the kernel
        IOException reason = new IOException("timed out");
        assertTrue(engine.cancel(cancelled, reason), "no SQE of its own: it ends at once");
        assertSame(reason, cancelled.error());
        assertFalse(engine.cancel(cancelled, reason), "once");
        SocketAddress client = connect();
        leadUntil(() -> held() == 1, "the connection is held for the next accept");
        IoRequest next = acceptRequest();
        assertEquals(StartResult.COMPLETED, engine.start(next));
        Set<SocketAddress> seen = new HashSet<>();
        take(next, seen);
        assertEquals(Set.of(client), seen);
    }

    @Test
    void closingTheListenerResetsTheConnectionsItHeld() throws Exception {
        open();
        acceptTheFirstConnection();
        connect();
        connect();
        leadUntil(() -> held() >= 1, "a connection is held");
        listener.close();
        lead(0); // the cancel's completion, and the accept's last
        for (Socket c : clients.subList(1, clients.size())) {
            c.setSoTimeout((int) TimeUnit.NANOSECONDS.toMillis(GUARD_NANOS));
            IOException e = assertThrows(IOException.class, () -> c.getInputStream().read(),
                    "the peer of a connection dropped by the listener's close sees a reset");
            assertTrue(String.valueOf(e.getMessage()).contains("reset"), e::toString);
        }
        assertEquals(0, held());
    }

    /**
     * An accept a thread blocks for (a NIO.2 future in a handler on a one-thread group: no other thread may poll)
     * finds the accept armed and a connection queued: it finishes at start with it, whether the armed accept took it
     * into a CQE nobody reaped yet (the start collects that CQE) or it is still in the backlog (the start cancels the
     * armed accept and takes it itself), with no poll.
     */
    @Test
    void anAwaitedAcceptTakesAQueuedConnectionAtStartWithTheAcceptArmed() throws Exception {
        open();
        Set<SocketAddress> seen = acceptTheFirstConnection();
        assertTrue(multishot().armed(), "the accept stays armed after its first connection");
        SocketAddress second = connect();
        IoRequest awaited = acceptRequest().awaited(true);
        assertEquals(StartResult.COMPLETED, engine.start(awaited), "the queued connection, without a poll");
        take(awaited, seen);
        assertTrue(seen.contains(second), () -> "the second connection: " + seen);
    }

    /** An awaited accept with nothing queued waits as any accept: the next connection completes it. */
    @Test
    void anAwaitedAcceptWithNothingQueuedWaitsForTheNextConnection() throws Exception {
        open();
        IoRequest first = acceptRequest();
        assertEquals(StartResult.PENDING, engine.start(first));
        lead(0); // the multishot accept is in the kernel
        assertTrue(engine.cancel(first, new IOException("cancelled")), "no SQE of its own: it ends at once");
        IoRequest awaited = acceptRequest().awaited(true);
        assertEquals(StartResult.PENDING, engine.start(awaited), "nothing queued");
        SocketAddress late = connect();
        Set<SocketAddress> seen = new HashSet<>();
        awaitCompletion(awaited, seen);
        assertEquals(Set.of(late), seen);
    }

    /**
     * An accept started by a thread whose SQEs another thread submits (a server's first accept, started by the
     * thread that opens it) is one {@code ACCEPT}: armed by it, the multishot accept's work would run on the
     * submitting thread at every connection. The next accept, started by a thread of the engine's own, arms it.
     */
    @Test
    void anAcceptStartedByAThreadThatDoesNotSubmitDoesNotArmTheMultishotAccept() throws Exception {
        open();
        IoRequest foreign = acceptRequest();
        StartResult[] started = new StartResult[1];
        Thread other = new Thread(() -> started[0] = engine.start(foreign), "not-the-engines");
        other.start();
        other.join();
        assertEquals(StartResult.PENDING, started[0]);
        synchronized (listener) {
            IoUringMultishotAccept multishot = listener.input.multishotAccept;
            assertTrue(multishot == null || !multishot.armed(), "no multishot accept armed by that thread");
        }
        SocketAddress first = connect();
        Set<SocketAddress> seen = new HashSet<>();
        awaitCompletion(foreign, seen);
        assertEquals(Set.of(first), seen);
        IoRequest own = acceptRequest();
        assertEquals(StartResult.PENDING, engine.start(own));
        assertTrue(multishot().armed(), "armed by the engine's own thread");
        SocketAddress second = connect();
        awaitCompletion(own, seen);
        assertTrue(seen.contains(second));
    }

    /** An accept arms the multishot accept, a connection comes and completes it; the peers seen so far. */
    private Set<SocketAddress> acceptTheFirstConnection() throws IOException {
        IoRequest first = acceptRequest();
        assertEquals(StartResult.PENDING, engine.start(first), "nothing queued: the multishot accept is armed");
        connect();
        Set<SocketAddress> seen = new HashSet<>();
        awaitCompletion(first, seen);
        return seen;
    }

    private IoUringMultishotAccept multishot() {
        synchronized (listener) {
            assertNotNull(listener.input.multishotAccept, "the listener accepts with a multishot accept");
            return listener.input.multishotAccept;
        }
    }

    private int held() {
        synchronized (listener) {
            return multishot().held();
        }
    }

    private SocketAddress connect() throws IOException {
        Socket c = new Socket(InetAddress.getLoopbackAddress(), jdk.socket().getLocalPort());
        clients.add(c);
        return c.getLocalSocketAddress();
    }

    private IoRequest acceptRequest() {
        return new IoRequest(this).prepare(OpKind.ACCEPT, listener);
    }

    /** Records the accepted connection's peer, which must be new, and keeps its handle for the tear-down. */
    private void take(IoRequest done, Set<SocketAddress> seen) {
        assertNull(done.error());
        Object handle = done.takeAcceptedHandle();
        assertNotNull(handle);
        accepted.add(handle);
        assertTrue(((AcceptedSocket) handle).fd >= 0);
        assertTrue(seen.add(done.peer()), () -> "accepted twice: " + done.peer());
    }

    private void awaitCompletion(IoRequest request, Set<SocketAddress> seen) throws IOException {
        long deadline = System.nanoTime() + GUARD_NANOS;
        for (;;) {
            assertTrue(System.nanoTime() - deadline < 0, "hang guard: the accept did not complete");
            for (IoRequest done : lead(TimeUnit.MILLISECONDS.toNanos(5))) {
                assertSame(request, done);
                take(done, seen);
                return;
            }
        }
    }

    private void leadUntil(BooleanSupplier condition, String what) throws IOException {
        long deadline = System.nanoTime() + GUARD_NANOS;
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() - deadline < 0, "hang guard: " + what);
            assertEquals(List.of(), lead(TimeUnit.MILLISECONDS.toNanos(5)), "no accept is pending");
        }
    }

    /** One turn of the test thread as the engine's leader; the requests it completed. */
    private List<IoRequest> lead(long timeoutNanos) throws IOException {
        WaitStrategy wait = engine.waitStrategy();
        wait.prepareToWait();
        try {
            wait.waitFor(timeoutNanos);
        } finally {
            wait.leaderAway();
        }
        List<IoRequest> done = new ArrayList<>();
        for (IoRequest r = wait.nextCompleted(); r != null; r = wait.nextCompleted()) {
            done.add(r);
        }
        return done;
    }
}
