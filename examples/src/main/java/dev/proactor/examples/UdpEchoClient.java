package dev.proactor.examples;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.Demultiplexor;
import dev.proactor.OpRead;
import dev.proactor.OpReceive;
import dev.proactor.OpSend;
import dev.proactor.OpTimer;
import dev.proactor.OpWrite;
import dev.proactor.ProactorConfig;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;

/**
 * UDP ping-pong load client on this framework ({@code echo-client --udp}): each session has its own datagram
 * socket and keeps exactly one datagram outstanding. A datagram carries a sequence number in its first 8 bytes
 * followed by a fixed pattern; the session waits for the echo of the current sequence, checks it byte for
 * byte, and sends the next. If no echo arrives within the retransmit timeout (one reusable {@link OpTimer} per
 * session) the same datagram is sent again.
 *
 * <p>Reported: messages/s, round-trip latency percentiles (from the first transmission of a sequence to its
 * echo, so retransmission delays count), retransmissions, late echoes (of a sequence already retransmitted
 * and answered) and lost datagrams (retransmissions whose original never came back: retransmitted - late).
 * Latencies are kept in an HdrHistogram; as in {@link EchoClient} the client is closed-loop (one datagram
 * outstanding, the next sent on the echo), so no coordinated-omission correction applies.
 */
public final class UdpEchoClient {

    /** What to run. {@code block} is the datagram size (8 .. 65,507). */
    public record Options(InetSocketAddress server, int sessions, int block, int seconds, int warmupSeconds,
                          int threads, int retransmitMillis) {

        /** Validates the sizes. */
        public Options {
            if (block < 8 || block > UdpEchoServer.MAX_DATAGRAM) {
                throw new IllegalArgumentException("--block must be 8 .. " + UdpEchoServer.MAX_DATAGRAM
                        + " for --udp (a datagram carries an 8-byte sequence number), was " + block);
            }
        }
    }

    /** What was measured (during the measured seconds; retransmission counts over the whole run). */
    public record Result(double messagesPerSecond, long p50Micros, long p99Micros, long p999Micros, long roundTrips,
                         long retransmitted, long late, long lost) {
    }

    private static final int FIRST_ECHO_SECONDS = 10;

    private final Options options;
    private final List<Session> sessions = new ArrayList<>();
    private final CountDownLatch started;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean measuring;
    private volatile boolean running = true;

    /** A client for {@code options}; nothing is opened before {@link #run()}. */
    public UdpEchoClient(Options options) {
        this.options = options;
        this.started = new CountDownLatch(options.sessions());
    }

    /** Opens every session, warms up, measures, and closes everything. */
    public Result run() throws IOException, InterruptedException {
        ProactorConfig config = ProactorConfig.fromSystemProperties().toBuilder().threads(options.threads()).build();
        InetSocketAddress local = new InetSocketAddress(0); // wildcard, ephemeral port: one per session
        try (Demultiplexor demux = Demultiplexor.open(config).start()) {
            for (int i = 0; i < options.sessions(); i++) {
                Session s = new Session(demux);
                sessions.add(s);
                s.socket = AsynchChannel.openDatagram(demux, s, local);
            }
            for (Session s : sessions) {
                s.start();
            }
            // UDP reports no refused "connection": a missing server shows only as silence.
            if (!started.await(FIRST_ECHO_SECONDS, TimeUnit.SECONDS)) {
                throw new IOException("not every session got an echo from " + options.server().getHostString() + ":"
                        + options.server().getPort() + " within "
                        + FIRST_ECHO_SECONDS + " s; is a udp-echo-server running there?");
            }
            checkFailure();
            Thread.sleep(TimeUnit.SECONDS.toMillis(options.warmupSeconds()));
            for (Session s : sessions) {
                s.resetMeasurement();
            }
            measuring = true;
            long start = System.nanoTime();
            Thread.sleep(TimeUnit.SECONDS.toMillis(options.seconds()));
            measuring = false;
            double elapsed = (System.nanoTime() - start) / 1e9;
            running = false;
            checkFailure();
            Histogram all = new Histogram(3);
            long retransmitted = 0;
            long late = 0;
            for (Session s : sessions) {
                synchronized (s) {
                    all.add(s.latencies);
                    retransmitted += s.retransmitted;
                    late += s.late;
                    s.stop();
                }
            }
            return new Result(all.getTotalCount() / elapsed, all.getValueAtPercentile(50.0) / 1000,
                    all.getValueAtPercentile(99.0) / 1000,
                    all.getValueAtPercentile(99.9) / 1000, all.getTotalCount(), retransmitted, late,
                    Math.max(0, retransmitted - late));
        }
    }

    private void checkFailure() throws IOException {
        Throwable t = failure.get();
        if (t != null) {
            throw new IOException("a session failed: " + t, t);
        }
    }

    /** Byte {@code i} of every datagram after the sequence number. */
    private static byte patternByte(int i) {
        return (byte) (i * 31 + 7);
    }

    /** One socket with one datagram outstanding. Guarded by synchronizing on it. */
    private final class Session implements AsynchHandler {
        private final ByteBuffer out = ByteBuffer.allocateDirect(options.block());
        private final ByteBuffer in = ByteBuffer.allocateDirect(UdpEchoServer.MAX_DATAGRAM);
        private final OpTimer timer;
        private final Histogram latencies = new Histogram(3);
        private AsynchChannel socket;
        private long sequence;
        private long firstSent;
        private boolean sendPending;
        private boolean first = true;
        private long timerDeadline;
        private long retransmitted;
        private long late;

        Session(Demultiplexor demux) {
            this.timer = demux.newTimer(this);
            for (int i = 8; i < options.block(); i++) {
                out.put(i, patternByte(i));
            }
        }

        synchronized void start() {
            socket.receive(in);
            firstSent = System.nanoTime();
            transmit();
        }

        synchronized void resetMeasurement() {
            latencies.reset();
        }

        synchronized void stop() {
            timer.cancel();
            socket.close();
        }

        /** Sends the current sequence (again) and arms the retransmit timer. Lock held. */
        private void transmit() {
            timerDeadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(options.retransmitMillis());
            timer.schedule(options.retransmitMillis(), TimeUnit.MILLISECONDS);
            if (sendPending) {
                return; // the previous send of this datagram has not even left yet: do not queue a copy
            }
            out.clear();
            out.putLong(0, sequence);
            sendPending = true;
            socket.send(out, options.server());
        }

        @Override
        public synchronized void onSendCompleted(OpSend op) {
            sendPending = false;
            if (!op.isSuccess() && running) {
                fail(op.getError());
            }
        }

        @Override
        public synchronized void onReceiveCompleted(OpReceive op) {
            if (!op.isSuccess()) {
                if (running) {
                    fail(op.getError());
                }
                return;
            }
            in.flip();
            if (in.remaining() >= 8) {
                long seq = in.getLong(0);
                if (seq == sequence) {
                    if (!verify()) {
                        return;
                    }
                    if (measuring) {
                        latencies.recordValue(System.nanoTime() - firstSent);
                    }
                    if (first) {
                        first = false;
                        started.countDown();
                    }
                    sequence++;
                    if (!running) {
                        timer.cancel();
                        return;
                    }
                    firstSent = System.nanoTime();
                    transmit();
                } else if (seq < sequence) {
                    late++; // the echo of a datagram already retransmitted and answered: it was slow, not lost
                }
            }
            in.clear();
            socket.receive(in);
        }

        /** Whether the echo is exactly the datagram sent; fails the session if not. Lock held. */
        private boolean verify() {
            if (in.remaining() != options.block()) {
                fail(new IOException("echo of " + in.remaining() + " bytes for a datagram of " + options.block()));
                return false;
            }
            for (int i = 8; i < options.block(); i++) {
                if (in.get(i) != patternByte(i)) {
                    fail(new IOException("echoed byte " + i + " of sequence " + sequence + " differs"));
                    return false;
                }
            }
            return true;
        }

        @Override
        public synchronized void onTimerCompleted(OpTimer op) {
            if (!running || System.nanoTime() - timerDeadline < 0) {
                return; // re-armed by an echo after this firing began
            }
            retransmitted++;
            transmit();
        }

        @Override
        public void onReadCompleted(OpRead op) {
            throw new IllegalStateException("a datagram socket does not read");
        }

        @Override
        public void onWriteCompleted(OpWrite op) {
            throw new IllegalStateException("a datagram socket does not write");
        }

        private void fail(Throwable t) {
            failure.compareAndSet(null, t);
            started.countDown();
            timer.cancel();
            socket.close();
        }
    }

    /** Prints the result. */
    public static void print(Options o, Result r, PrintStream out) {
        out.printf("udp sessions=%d block=%d seconds=%d retransmit-ms=%d%n", o.sessions(), o.block(), o.seconds(),
                o.retransmitMillis());
        out.printf("msgs/s=%.0f bytes/s=%.0f (%.1f MiB/s)%n", r.messagesPerSecond(),
                r.messagesPerSecond() * o.block(), r.messagesPerSecond() * o.block() / 1048576.0);
        out.printf("round trips=%d latency p50=%dus p99=%dus p99.9=%dus%n", r.roundTrips(), r.p50Micros(),
                r.p99Micros(), r.p999Micros());
        out.printf("retransmitted=%d late=%d lost=%d%n", r.retransmitted(), r.late(), r.lost());
    }
}
