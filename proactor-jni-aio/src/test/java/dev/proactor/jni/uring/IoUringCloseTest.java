package dev.proactor.jni.uring;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proactor.jni.IoUring;
import dev.proactor.spi.EngineSettings;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.OpKind;
import dev.proactor.spi.StartResult;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Closing an io_uring channel while its SQE (a SEND) is written and taken by a leader that has not entered the kernel
 * yet (the leader's steps taken by hand on the engine's ring): the descriptor must not be freed before the kernel took
 * the SQE in, or the request runs on whatever socket gets the number next.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class IoUringCloseTest {

    @Test
    void aChannelClosedBetweenTheLeadersTakeAndEnterNeverLetsItsRequestReachAReusedNumber() throws Exception {
        IoUringEngineProvider provider = new IoUringEngineProvider();
        assumeTrue(provider.isAvailable(), () -> "io_uring unavailable: " + provider.unavailabilityCause());
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        System.setProperty(IoUringFeatures.TRY_FIRST_PROPERTY, "false"); // the SEND goes to the ring, untried
        IoUringEngine engine;
        try {
            engine = (IoUringEngine) provider.create(new EngineSettings("io_uring", "close-test"));
        } finally {
            System.clearProperty(IoUringFeatures.TRY_FIRST_PROPERTY);
        }
        List<AutoCloseable> open = new ArrayList<>();
        try (ServerSocketChannel server = ServerSocketChannel.open().bind(loopback)) {
            // Once without a victim, so that nothing the checks load lazily (classes, jars) takes a number later.
            exchange(newPair(server, new ArrayList<>()));
            SocketChannel victim = SocketChannel.open(server.getLocalAddress());
            open.add(server.accept());
            IoUringChannel channel = (IoUringChannel) engine.register(victim);
            IoRequest send = new IoRequest(new Object());
            ByteBuffer stale = ByteBuffer.allocateDirect(3).put(new byte[] {6, 6, 6}).flip();
            send.prepare(OpKind.WRITE, channel).buffer(stale);
            assertEquals(StartResult.PENDING, engine.start(send)); // a SEND SQE is written
            IoUringRing ring = engineRing(engine);
            int taken = ring.takeUnsubmitted(); // the leader takes the count and is preempted before its enter
            Thread closer = startClosing(channel);
            closer.join(200); // the fixed engine waits for the kernel here; the old one freed the number at once
            // New connections take the lowest free numbers: the channel's, if it was freed.
            List<Socket[]> pairs = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                pairs.add(newPair(server, open));
            }
            int result = ring.enter(taken, 0, 0); // the leader's enter, late
            ring.afterEnter(taken, result);
            closer.join();
            for (Socket[] pair : pairs) {
                exchange(pair);
            }
            assertFalse(closer.isAlive());
        } finally {
            for (AutoCloseable c : open) {
                c.close();
            }
            engine.close();
        }
    }

    /**
     * On a single-issuer ring a thread other than the owner closes a channel whose SEND is written and not yet
     * submitted: it cannot make the kernel take the SQE in, so it must neither wait for the owner nor free the
     * number; the owner closes the descriptor after the wait that submitted the SEND.
     */
    @Test
    void aChannelClosedByAnotherThreadThanTheRingsOwnerIsClosedByTheOwnerOnceItsSqesAreIn() throws Exception {
        IoUringEngineProvider provider = new IoUringEngineProvider();
        assumeTrue(provider.isAvailable(), () -> "io_uring unavailable: " + provider.unavailabilityCause());
        assumeTrue(IoUring.isDeferTaskrunSupported(), "the kernel has no DEFER_TASKRUN");
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        System.setProperty(IoUringFeatures.TRY_FIRST_PROPERTY, "false"); // the SEND goes to the ring, untried
        IoUringEngine engine;
        try {
            engine = (IoUringEngine) provider.create(new EngineSettings("io_uring", "owner-close-test", () -> false,
                    true));
        } finally {
            System.clearProperty(IoUringFeatures.TRY_FIRST_PROPERTY);
        }
        List<AutoCloseable> open = new ArrayList<>();
        try (ServerSocketChannel server = ServerSocketChannel.open().bind(loopback)) {
            exchange(newPair(server, new ArrayList<>())); // loads what the checks need before the victim's number
            engine.waitStrategy().waitFor(0); // this thread leads first: it owns the ring from now on
            SocketChannel victim = SocketChannel.open(server.getLocalAddress());
            Socket victimPeer = server.accept().socket();
            open.add(victimPeer);
            IoUringChannel channel = (IoUringChannel) engine.register(victim);
            IoRequest send = new IoRequest(new Object());
            ByteBuffer stale = ByteBuffer.allocateDirect(3).put(new byte[] {6, 6, 6}).flip();
            send.prepare(OpKind.WRITE, channel).buffer(stale);
            assertEquals(StartResult.PENDING, engine.start(send)); // written; the owner's next wait submits it
            Thread closer = startClosing(channel);
            closer.join(TimeUnit.SECONDS.toMillis(60));
            assertFalse(closer.isAlive(), "the close waited for the ring's owner");
            List<Socket[]> pairs = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                pairs.add(newPair(server, open)); // the lowest free numbers: the channel's, had it been freed
            }
            IoRequest done = null;
            for (int i = 0; i < 100 && done == null; i++) {
                engine.waitStrategy().waitFor(TimeUnit.MILLISECONDS.toNanos(100)); // the owner submits and reaps
                done = engine.waitStrategy().nextCompleted();
            }
            assertSame(send, done, "the SEND completed");
            for (Socket[] pair : pairs) {
                exchange(pair);
            }
            victimPeer.setSoTimeout((int) TimeUnit.SECONDS.toMillis(10));
            InputStream in = victimPeer.getInputStream();
            assertArrayEquals(new byte[] {6, 6, 6}, in.readNBytes(3), "the SEND went out on its own socket");
            assertEquals(-1, in.read(), "the owner closed the descriptor after the SEND was in");
        } finally {
            for (AutoCloseable c : open) {
                c.close();
            }
            engine.close();
        }
    }

    /** A thread of its own, started, that closes {@code channel}. */
    private static Thread startClosing(IoUringChannel channel) {
        Thread closer = new Thread(() -> {
            try {
                channel.close();
            } catch (java.io.IOException e) {
                throw new UncheckedIOException(e);
            }
        }, "closer");
        closer.start();
        return closer;
    }

    /** A new connection to {@code server}: its two sockets (both added to {@code open}). */
    private static Socket[] newPair(ServerSocketChannel server, List<AutoCloseable> open) throws Exception {
        SocketChannel client = SocketChannel.open(server.getLocalAddress());
        SocketChannel peer = server.accept();
        open.add(client);
        open.add(peer);
        return new Socket[] {client.socket(), peer.socket()};
    }

    /** Both ends of a connection receive exactly what the other sent. */
    private static void exchange(Socket[] pair) throws Exception {
        for (int side = 0; side < 2; side++) {
            OutputStream out = pair[side].getOutputStream();
            out.write(new byte[] {7, 8, 9});
            out.flush();
            Socket to = pair[1 - side];
            to.setSoTimeout((int) TimeUnit.SECONDS.toMillis(10));
            InputStream in = to.getInputStream();
            assertArrayEquals(new byte[] {7, 8, 9}, in.readNBytes(3),
                    "a SEND of the closed channel reached a connection that reused its number");
        }
    }

    private static IoUringRing engineRing(IoUringEngine engine) throws ReflectiveOperationException {
        java.lang.reflect.Field f = IoUringEngine.class.getDeclaredField("ring");
        f.setAccessible(true);
        return (IoUringRing) f.get(engine);
    }
}
