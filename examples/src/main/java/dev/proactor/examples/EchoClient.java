package dev.proactor.examples;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.Demultiplexor;
import dev.proactor.OpConnect;
import dev.proactor.OpRead;
import dev.proactor.OpWrite;
import dev.proactor.ProactorConfig;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;

/**
 * A load client on this framework: N sessions each keep a window of bytes in flight (or, with window 0, send
 * one block and wait for it to come back: ping-pong), and every echoed byte is checked against what was sent.
 * Reports bytes/s, messages/s and, for ping-pong, round-trip latency percentiles.
 *
 * <p>Latencies go into an HdrHistogram (3 significant digits) per session, merged at the end. The client is
 * closed-loop: a session sends its next message only when the previous one came back, with no schedule of its
 * own, so there is no intended send time to correct against and no coordinated-omission correction is applied;
 * a stalled server shows as fewer round trips, not as hidden latency.
 */
public final class EchoClient {

    /** What to run. */
    public record Options(InetSocketAddress server, int sessions, int block, int window, int seconds,
                          int warmupSeconds, int threads) {
    }

    /** What was measured. */
    public record Result(double bytesPerSecond, double messagesPerSecond, long p50Micros, long p99Micros,
                         long p999Micros, long roundTrips) {
    }

    private final Options options;
    private final List<Session> sessions = new ArrayList<>();
    private final CountDownLatch connected;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean measuring;
    private volatile boolean running = true;

    public EchoClient(Options options) {
        this.options = options;
        this.connected = new CountDownLatch(options.sessions());
    }

    /** Connects every session, warms up, measures, and closes everything. */
    public Result run() throws IOException, InterruptedException {
        ProactorConfig config = ProactorConfig.fromSystemProperties().toBuilder().threads(options.threads()).build();
        try (Demultiplexor demux = Demultiplexor.open(config).start()) {
            ByteBuffer pattern = pattern(options.block());
            for (int i = 0; i < options.sessions(); i++) {
                Session s = new Session(pattern);
                sessions.add(s);
                s.channel = AsynchChannel.openSocket(demux, s);
                s.channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                s.channel.connect(options.server());
            }
            if (!connected.await(60, TimeUnit.SECONDS)) {
                throw new IOException("not every session got its first echo within 60 s");
            }
            checkFailure();
            Thread.sleep(TimeUnit.SECONDS.toMillis(options.warmupSeconds()));
            for (Session s : sessions) {
                s.resetCounters();
            }
            measuring = true;
            long start = System.nanoTime();
            Thread.sleep(TimeUnit.SECONDS.toMillis(options.seconds()));
            measuring = false;
            double elapsed = (System.nanoTime() - start) / 1e9;
            running = false;
            checkFailure();
            long bytes = 0;
            Histogram all = new Histogram(3);
            for (Session s : sessions) {
                synchronized (s) {
                    bytes += s.measuredBytes;
                    all.add(s.latencies);
                }
            }
            return new Result(bytes / elapsed, bytes / (double) options.block() / elapsed,
                    all.getValueAtPercentile(50.0) / 1000, all.getValueAtPercentile(99.0) / 1000,
                    all.getValueAtPercentile(99.9) / 1000,
                    all.getTotalCount());
        }
    }

    private void checkFailure() throws IOException {
        Throwable t = failure.get();
        if (t != null) {
            throw new IOException("a session failed: " + t, t);
        }
    }

    private static ByteBuffer pattern(int block) {
        ByteBuffer b = ByteBuffer.allocateDirect(block);
        for (int i = 0; i < block; i++) {
            b.put((byte) (i * 31 + 7));
        }
        return b.flip().asReadOnlyBuffer();
    }

    /** One connection: a ring of write views of the pattern and a read buffer. Guarded by synchronizing on it. */
    private final class Session implements AsynchHandler {
        private final ByteBuffer pattern;
        private final ByteBuffer[] writeSlots;
        private final ByteBuffer in;
        private final Histogram latencies = new Histogram(3);
        private AsynchChannel channel;
        private int nextSlot;
        private long inflight;
        private long received; // stream offset of the next byte to verify
        private long measuredBytes;
        private long roundTripStart;
        private boolean first = true;

        Session(ByteBuffer pattern) {
            this.pattern = pattern;
            int block = options.block();
            // At most window/block writes are unechoed at a time; one slot more is never in use (see run()).
            int slots = options.window() == 0 ? 1 : options.window() / block + 1;
            writeSlots = new ByteBuffer[slots];
            for (int i = 0; i < slots; i++) {
                writeSlots[i] = pattern.duplicate();
            }
            in = ByteBuffer.allocateDirect(Math.max(block, 64 * 1024));
        }

        synchronized void resetCounters() {
            measuredBytes = 0;
            latencies.reset();
        }

        @Override
        public synchronized void onConnectCompleted(OpConnect op) {
            if (!op.isSuccess()) {
                fail(op.getError());
                return;
            }
            fill();
            channel.read(in);
        }

        /** Starts writes while the window allows (one block at a time for ping-pong). Lock held. */
        private void fill() {
            int block = options.block();
            long window = options.window() == 0 ? block : options.window();
            while (running && inflight + block <= window) {
                ByteBuffer slot = writeSlots[nextSlot];
                nextSlot = (nextSlot + 1) % writeSlots.length;
                slot.clear();
                inflight += block;
                roundTripStart = System.nanoTime();
                channel.write(slot);
            }
        }

        @Override
        public synchronized void onWriteCompleted(OpWrite op) {
            if (!op.isSuccess() && running) {
                fail(op.getError());
            }
        }

        @Override
        public synchronized void onReadCompleted(OpRead op) {
            if (!op.isSuccess() || op.isEndOfStream()) {
                if (running) {
                    fail(op.isSuccess() ? new IOException("server closed the connection") : op.getError());
                }
                return;
            }
            in.flip();
            int n = in.remaining();
            int block = options.block();
            for (int i = 0; i < n; i++) {
                int expected = pattern.get((int) ((received + i) % block));
                if (in.get(i) != expected) {
                    fail(new IOException("echoed byte " + (received + i) + " differs"));
                    return;
                }
            }
            received += n;
            inflight -= n;
            in.clear();
            if (measuring) {
                measuredBytes += n;
            }
            if (options.window() == 0 && inflight == 0) {
                if (measuring) {
                    latencies.recordValue(System.nanoTime() - roundTripStart);
                }
            }
            if (first) {
                first = false;
                connected.countDown();
            }
            if (!running) {
                channel.close();
                return;
            }
            fill();
            channel.read(in);
        }

        private void fail(Throwable t) {
            failure.compareAndSet(null, t);
            connected.countDown();
            channel.close();
        }
    }

    /** Prints the result in the format documented in the README. */
    public static void print(Options o, Result r, PrintStream out) {
        out.printf("sessions=%d block=%d window=%d seconds=%d%n", o.sessions(), o.block(), o.window(), o.seconds());
        out.printf("bytes/s=%.0f (%.1f MiB/s) msgs/s=%.0f%n", r.bytesPerSecond(), r.bytesPerSecond() / 1048576.0,
                r.messagesPerSecond());
        if (o.window() == 0) {
            out.printf("round trips=%d latency p50=%dus p99=%dus p99.9=%dus%n", r.roundTrips(), r.p50Micros(),
                    r.p99Micros(), r.p999Micros());
        }
    }
}
