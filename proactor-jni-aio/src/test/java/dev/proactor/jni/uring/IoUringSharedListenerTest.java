package dev.proactor.jni.uring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
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
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The file status flags of a listening socket are shared by every descriptor of its open file description (the
 * user's JDK channel, the engine's duplicate, a second registration, another process): the io_uring engine's accept
 * tried at start never changes them (an {@code O_NONBLOCK} seen by another channel's {@code ACCEPT} in a ring makes
 * it fail with {@code EAGAIN}), and a socket that two channels accept on is never tried at start (a try could lose
 * the connection it saw to the other channel's accept, and block). The flags are read from
 * {@code /proc/self/fdinfo}. No timing: the flags are sampled for as long as the accepts take.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class IoUringSharedListenerTest {

    /** Hang guard only. */
    private static final long GUARD_NANOS = TimeUnit.SECONDS.toNanos(30);
    /** {@code O_NONBLOCK} in the octal {@code flags:} line of {@code /proc/self/fdinfo}. */
    private static final int O_NONBLOCK = 04000;

    private IoUringEngine engine;
    private ServerSocketChannel jdk;
    private final List<Socket> clients = new ArrayList<>();

    @AfterEach
    void tearDown() throws Exception {
        if (engine != null) {
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
        assumeTrue(Files.isDirectory(Path.of("/proc/self/fdinfo")), "no /proc/self/fdinfo");
        Thread testThread = Thread.currentThread();
        System.setProperty(IoUringFeatures.TRY_FIRST_PROPERTY, "true"); // every accept is tried at start if it may be
        try {
            engine = (IoUringEngine) provider.create(new EngineSettings(IoUringWaitStrategy.NAME, "listener-test",
                    () -> Thread.currentThread() == testThread));
        } finally {
            System.clearProperty(IoUringFeatures.TRY_FIRST_PROPERTY);
        }
        jdk = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1024);
    }

    @Test
    void acceptsTriedAtStartNeverChangeTheListeningSocketsFileStatusFlags() throws Exception {
        open();
        IoUringChannel listener = (IoUringChannel) engine.register(jdk);
        int initial = flags(listener.fd);
        assertEquals(0, initial & O_NONBLOCK, "the engine's listening socket is blocking");
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong samples = new AtomicLong();
        Set<String> seen = new HashSet<>(); // in octal, as /proc shows them
        Thread sampler = new Thread(() -> {
            // One open file, read again from its start for each sample: the kernel writes the lines anew each time.
            try (FileChannel info = FileChannel.open(fdinfo(listener.fd))) {
                ByteBuffer buffer = ByteBuffer.allocate(4096);
                while (!stop.get()) {
                    buffer.clear();
                    info.read(buffer, 0);
                    String now = Integer.toOctalString(flags(new String(buffer.array(), 0, buffer.position(),
                            StandardCharsets.US_ASCII), listener.fd));
                    synchronized (seen) {
                        seen.add(now);
                    }
                    samples.incrementAndGet();
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }, "flags-sampler");
        sampler.start();
        int triedAtStart = 0;
        try {
            // Accepts for as long as it takes the sampler to look often: enough tries overlap its reads.
            long deadline = System.nanoTime() + GUARD_NANOS;
            for (int i = 0; i < 2000 || samples.get() < 20_000; i++) {
                assertTrue(System.nanoTime() - deadline < 0, "hang guard: " + i + " accepts, " + samples + " samples");
                clients.add(new Socket(InetAddress.getLoopbackAddress(), jdk.socket().getLocalPort()));
                if (accept(listener)) {
                    triedAtStart++;
                }
                clients.remove(0).close();
            }
        } finally {
            stop.set(true);
            sampler.join();
        }
        assertTrue(triedAtStart > 0, "accepts were tried at start");
        synchronized (seen) {
            assertEquals(Set.of(Integer.toOctalString(initial)), seen,
                    "flags seen while accepts were tried (O_NONBLOCK is 04000)");
        }
    }

    @Test
    void aListeningSocketTwoChannelsAcceptOnIsNeverTriedAtStart() throws Exception {
        open();
        EngineChannel first = engine.register(jdk);
        EngineChannel second = engine.register(jdk); // a second duplicate of the same socket
        int initial = flags(((IoUringChannel) first).fd);
        IoRequest fromSecond = acceptRequest(second);
        assertEquals(StartResult.PENDING, engine.start(fromSecond), "nothing queued: waits in the ring");
        lead(0); // the second channel's ACCEPT is in the kernel
        clients.add(new Socket(InetAddress.getLoopbackAddress(), jdk.socket().getLocalPort()));
        clients.add(new Socket(InetAddress.getLoopbackAddress(), jdk.socket().getLocalPort()));
        IoRequest fromFirst = acceptRequest(first);
        assertEquals(StartResult.PENDING, engine.start(fromFirst), "not tried at start: another channel accepts");
        Set<IoRequest> left = new HashSet<>(List.of(fromFirst, fromSecond));
        long deadline = System.nanoTime() + GUARD_NANOS;
        while (!left.isEmpty()) {
            assertTrue(System.nanoTime() - deadline < 0, "hang guard: the accepts did not complete");
            for (IoRequest done : lead(TimeUnit.MILLISECONDS.toNanos(5))) {
                assertTrue(left.remove(done), "a pending accept completes once");
                assertNull(done.error(), "both accepts take a connection");
                assertNotNull(done.acceptedHandle());
                engine.discard(done.takeAcceptedHandle());
            }
        }
        assertEquals(initial, flags(((IoUringChannel) first).fd), "the flags are as they were");
        assertFalse(first.isClosed() || second.isClosed());
    }

    /** Starts an accept on {@code listener} and leads until it completed; whether it completed at start. */
    private boolean accept(IoUringChannel listener) throws IOException {
        IoRequest request = acceptRequest(listener);
        boolean atStart = engine.start(request) == StartResult.COMPLETED;
        long deadline = System.nanoTime() + GUARD_NANOS;
        while (!atStart && lead(TimeUnit.MILLISECONDS.toNanos(5)).isEmpty()) {
            assertTrue(System.nanoTime() - deadline < 0, "hang guard: the accept did not complete");
        }
        assertNull(request.error());
        engine.discard(request.takeAcceptedHandle());
        return atStart;
    }

    private IoRequest acceptRequest(EngineChannel listener) {
        return new IoRequest(this).prepare(OpKind.ACCEPT, listener);
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

    /** The file status flags of {@code fd}'s open file description, from {@code /proc/self/fdinfo}. */
    private static int flags(int fd) throws IOException {
        return flags(Files.readString(fdinfo(fd), StandardCharsets.US_ASCII), fd);
    }

    private static Path fdinfo(int fd) {
        return Path.of("/proc/self/fdinfo/" + fd);
    }

    /** The flags in {@code info}, the text of {@code fd}'s {@code /proc/self/fdinfo} file. */
    private static int flags(String info, int fd) throws IOException {
        for (String line : info.split("\n")) {
            if (line.startsWith("flags:")) {
                return Integer.parseInt(line.substring("flags:".length()).trim(), 8);
            }
        }
        throw new IOException("no flags line in /proc/self/fdinfo/" + fd);
    }
}
