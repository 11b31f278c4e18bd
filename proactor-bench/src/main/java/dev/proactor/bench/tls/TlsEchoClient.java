package dev.proactor.bench.tls;

import dev.proactor.bench.server.TlsCredentials;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import java.util.function.ToLongFunction;
import org.HdrHistogram.Histogram;

/**
 * The one client of the TLS echo benchmark, used for every server: Netty with {@link io.netty.handler.ssl.SslHandler}
 * (JDK provider, TLS 1.3, the JDK's default cipher suites), trusting only the benchmark's certificate, on the native
 * epoll transport when it loads (else NIO). Each {@link #run} opens fresh sessions, handshakes them all before
 * sending, warms up, measures, then drains and checks that every byte sent came back.
 *
 * <p>Threads: {@link #run} blocks the calling thread; the sessions run on the client's event loops.
 */
public final class TlsEchoClient implements AutoCloseable {
    private static final int HANDSHAKE_TIMEOUT_SECONDS = 30;
    private static final int DRAIN_TIMEOUT_SECONDS = 10;

    private final EventLoopGroup group;
    private final boolean epoll;
    private final SslContext ssl;
    private final PooledByteBufAllocator allocator = new PooledByteBufAllocator(true);

    /**
     * Starts the client's event loops.
     *
     * @param threads     event loop threads
     * @param credentials whose certificate is trusted
     * @throws IOException when the SSL context cannot be built
     */
    public TlsEchoClient(int threads, TlsCredentials credentials) throws IOException {
        this.epoll = Epoll.isAvailable();
        this.ssl = SslContextBuilder.forClient()
                .sslProvider(SslProvider.JDK)
                .protocols(TlsCredentials.PROTOCOL)
                .ciphers(TlsCredentials.defaultCipherSuites())
                .trustManager(credentials.trustManagers())
                .build();
        this.group = new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory("tls-echo-client"),
                epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
    }

    /**
     * The client's Netty transport.
     *
     * @return {@code epoll} or {@code nio}
     */
    public String transport() {
        return epoll ? "epoll" : "nio";
    }

    /**
     * One measured run.
     *
     * @param server        the echo server
     * @param spec          sessions, block, window, seconds
     * @param serverName    for the result
     * @param transportName for the result
     * @param run           run number, for the result
     * @return the result
     * @throws IOException          when a session fails (wrong byte, closed connection, TLS error) or times out
     * @throws InterruptedException when interrupted
     */
    public TlsEchoResult run(InetSocketAddress server, RunSpec spec, String serverName, String transportName, int run,
                             LongSupplier serverCpuNanos) throws IOException, InterruptedException {
        EchoPattern pattern = new EchoPattern(spec.block());
        int window = spec.mode() == Mode.PING_PONG ? 1 : spec.window();
        List<TlsEchoSession> sessions = new ArrayList<>();
        List<Channel> channels = new ArrayList<>();
        try {
            for (int i = 0; i < spec.sessions(); i++) {
                TlsEchoSession s = new TlsEchoSession(i, spec.block(), window, pattern);
                sessions.add(s);
                channels.add(connect(server, s));
            }
            String cipher = null;
            for (TlsEchoSession s : sessions) {
                cipher = await(s.handshake(), HANDSHAKE_TIMEOUT_SECONDS, "TLS handshake");
            }
            for (int i = 0; i < sessions.size(); i++) {
                TlsEchoSession s = sessions.get(i);
                channels.get(i).eventLoop().execute(s::start);
            }
            sleepChecking(sessions, spec.warmupSeconds() * 1000L);
            if (spec.mode() == Mode.PING_PONG) { // with several blocks in flight a round trip includes queueing
                sessions.forEach(s -> s.record(true));
            }
            long before = sum(sessions, TlsEchoSession::received);
            long reads0 = sum(sessions, TlsEchoSession::reads);
            long serverCpu0 = serverCpuNanos.getAsLong();
            long clientCpu0 = cpuNanos(ProcessHandle.current().pid());
            long t0 = System.nanoTime();
            sleepChecking(sessions, spec.seconds() * 1000L);
            long after = sum(sessions, TlsEchoSession::received);
            long reads1 = sum(sessions, TlsEchoSession::reads);
            long t1 = System.nanoTime();
            double serverCpu = cpuSeconds(serverCpu0, serverCpuNanos.getAsLong());
            double clientCpu = cpuSeconds(clientCpu0, cpuNanos(ProcessHandle.current().pid()));
            sessions.forEach(s -> s.record(false));
            for (int i = 0; i < sessions.size(); i++) {
                channels.get(i).eventLoop().execute(sessions.get(i)::stop);
            }
            Histogram latency = new Histogram(3);
            for (TlsEchoSession s : sessions) {
                await(s.drained(), DRAIN_TIMEOUT_SECONDS, "draining the blocks in flight");
                latency.add(s.latencyUs()); // safe: drained() completed on the session's event loop
            }
            return new TlsEchoResult(serverName, transportName, spec.mode(), run, spec.block(), after - before,
                    (t1 - t0) / 1e9, latency, cipher, serverCpu, clientCpu, reads1 - reads0);
        } finally {
            for (Channel c : channels) {
                c.close();
            }
            for (Channel c : channels) {
                c.closeFuture().awaitUninterruptibly(5, TimeUnit.SECONDS);
            }
        }
    }

    private Channel connect(InetSocketAddress server, TlsEchoSession session) throws IOException, InterruptedException {
        Bootstrap b = new Bootstrap()
                .group(group)
                .channel(epoll ? EpollSocketChannel.class : NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.ALLOCATOR, allocator)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(ssl.newHandler(ch.alloc(), "localhost", server.getPort()), session);
                    }
                });
        var f = b.connect(server).await();
        if (!f.isSuccess()) {
            throw new IOException("cannot connect to " + server + ": " + f.cause(), f.cause());
        }
        return f.channel();
    }

    /** One counter summed over the sessions, e.g. {@link TlsEchoSession#received()} (any thread). */
    private static long sum(List<TlsEchoSession> sessions, ToLongFunction<TlsEchoSession> counter) {
        long sum = 0;
        for (TlsEchoSession s : sessions) {
            sum += counter.applyAsLong(s);
        }
        return sum;
    }

    /** Sleeps, failing early with the first session failure. */
    private static void sleepChecking(List<TlsEchoSession> sessions, long millis) throws IOException,
            InterruptedException {
        long end = System.currentTimeMillis() + millis;
        for (long left = millis; left > 0; left = end - System.currentTimeMillis()) {
            Thread.sleep(Math.min(left, 100));
            for (TlsEchoSession s : sessions) {
                if (s.failure() != null) {
                    throw new IOException("session failed: " + s.failure(), s.failure());
                }
            }
        }
    }

    private static <T> T await(CompletableFuture<T> f, int seconds, String what) throws IOException,
            InterruptedException {
        try {
            return f.get(seconds, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new IOException(what + " failed: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IOException(what + " did not finish within " + seconds + " s");
        }
    }

    @Override
    public void close() {
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }

    /**
     * CPU time of a process so far, or -1 when it is gone or the platform does not tell.
     *
     * @param pid the process
     * @return nanoseconds
     */
    public static long cpuNanos(long pid) {
        return ProcessHandle.of(pid).flatMap(h -> h.info().totalCpuDuration()).map(Duration::toNanos)
                .orElse(-1L);
    }

    private static double cpuSeconds(long before, long after) {
        return before < 0 || after < 0 ? Double.NaN : (after - before) / 1e9;
    }

    /**
     * What one run does.
     *
     * @param mode          window or ping-pong (window 1)
     * @param sessions      connections
     * @param block         bytes per block
     * @param window        blocks in flight per session in window mode
     * @param warmupSeconds unmeasured seconds first
     * @param seconds       measured seconds
     */
    public record RunSpec(Mode mode, int sessions, int block, int window, int warmupSeconds, int seconds) {
    }
}
