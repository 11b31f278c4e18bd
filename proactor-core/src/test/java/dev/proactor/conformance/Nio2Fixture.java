package dev.proactor.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousChannelGroup;
import java.nio.channels.AsynchronousServerSocketChannel;
import java.nio.channels.AsynchronousSocketChannel;
import java.nio.channels.spi.AsynchronousChannelProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The groups and channels of one NIO.2 contract test on one provider, all released at {@link #close()} (which
 * also checks that every group terminates).
 */
final class Nio2Fixture implements AutoCloseable {

    /** A connected pair and the listening channel it came from. */
    record Pair(AsynchronousSocketChannel client, AsynchronousSocketChannel accepted,
                AsynchronousServerSocketChannel server) {
    }

    final AsynchronousChannelProvider provider;
    private final List<AsynchronousChannelGroup> groups = new ArrayList<>();
    private final List<java.io.Closeable> channels = new ArrayList<>();

    Nio2Fixture(Nio2Target target) {
        this.provider = target.open();
    }

    /** A thread factory whose threads are named {@code prefix-N}. */
    static ThreadFactory named(String prefix) {
        AtomicInteger ids = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + ids.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /** A fixed group of {@code threads} threads named {@code prefix-N}. */
    AsynchronousChannelGroup fixedGroup(int threads, String prefix) throws IOException {
        return track(provider.openAsynchronousChannelGroup(threads, named(prefix)));
    }

    /** A group on a cached thread pool whose threads are named {@code prefix-N} (as Tomcat and MINA make them). */
    AsynchronousChannelGroup executorGroup(String prefix) throws IOException {
        return executorGroup(prefix, 0);
    }

    /** A group on a cached thread pool of threads named {@code prefix-N}, with {@code initialSize} at start. */
    AsynchronousChannelGroup executorGroup(String prefix, int initialSize) throws IOException {
        ExecutorService pool = Executors.newCachedThreadPool(named(prefix));
        return track(provider.openAsynchronousChannelGroup(pool, initialSize));
    }

    /** A group whose handlers run on {@code pool} (shut down with the group). */
    AsynchronousChannelGroup executorGroup(ExecutorService pool) throws IOException {
        return track(provider.openAsynchronousChannelGroup(pool, 0));
    }

    private AsynchronousChannelGroup track(AsynchronousChannelGroup g) {
        groups.add(g);
        return g;
    }

    /** A listening channel of {@code group} (null: the default group) bound to a loopback port. */
    AsynchronousServerSocketChannel server(AsynchronousChannelGroup group) throws IOException {
        AsynchronousServerSocketChannel s = track(provider.openAsynchronousServerSocketChannel(group));
        s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        return s;
    }

    /** An unconnected channel of {@code group} (null: the default group). */
    AsynchronousSocketChannel socket(AsynchronousChannelGroup group) throws IOException {
        return track(provider.openAsynchronousSocketChannel(group));
    }

    <C extends java.io.Closeable> C track(C channel) {
        synchronized (channels) {
            channels.add(channel);
        }
        return channel;
    }

    /** A client of {@code group} connected (with futures) to a new listening channel of the same group. */
    Pair pair(AsynchronousChannelGroup group) throws Exception {
        AsynchronousServerSocketChannel server = server(group);
        return pair(group, server);
    }

    /** A client of {@code group} connected to {@code server}, and the channel {@code server} accepted. */
    Pair pair(AsynchronousChannelGroup group, AsynchronousServerSocketChannel server) throws Exception {
        Future<AsynchronousSocketChannel> accepted = server.accept();
        AsynchronousSocketChannel client = socket(group);
        assertEquals(null, get(client.connect(server.getLocalAddress())));
        return new Pair(client, track(get(accepted)), server);
    }

    /** The future's value within the hang guard. */
    static <V> V get(Future<V> f) throws InterruptedException, ExecutionException {
        try {
            return f.get(Outcome.GUARD_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("hang guard: the future never completed");
        }
    }

    /** Writes all of {@code src} with futures (a write may transfer fewer bytes than asked, as the JDK allows). */
    static void writeFully(AsynchronousSocketChannel ch, ByteBuffer src) throws Exception {
        while (src.hasRemaining()) {
            get(ch.write(src));
        }
    }

    /** Reads exactly {@code n} bytes with futures; fails at an early end of stream. */
    static ByteBuffer readFully(AsynchronousSocketChannel ch, int n) throws Exception {
        ByteBuffer dst = ByteBuffer.allocate(n);
        while (dst.hasRemaining()) {
            int got = get(ch.read(dst));
            assertTrue(got >= 0, () -> "end of stream after " + dst.position() + " of " + n + " bytes");
        }
        return dst.flip();
    }

    /** Closes every channel, shuts every group down and checks that each terminates. */
    @Override
    public void close() throws IOException {
        try {
            closeAll();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while the groups terminated", e);
        }
    }

    private void closeAll() throws IOException, InterruptedException {
        List<java.io.Closeable> all;
        synchronized (channels) {
            all = new ArrayList<>(channels);
        }
        for (java.io.Closeable c : all) {
            c.close();
        }
        for (AsynchronousChannelGroup g : groups) {
            g.shutdownNow();
        }
        for (AsynchronousChannelGroup g : groups) {
            assertTrue(g.awaitTermination(Outcome.GUARD_SECONDS, TimeUnit.SECONDS),
                    "hang guard: group " + g + " never terminated");
            assertTrue(g.isTerminated(), "terminated " + g);
        }
    }
}
