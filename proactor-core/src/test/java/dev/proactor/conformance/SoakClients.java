package dev.proactor.conformance;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The soak's clients: a few threads, each with a {@link Selector} over its share of non-blocking JDK sockets.
 * Each connection sends its own pseudo-random stream ({@link SoakPattern}, seeded per connection) in random
 * chunks, within a per-connection window of unanswered bytes (at most its share of the run's bytes in flight),
 * and checks every echoed byte against the byte sent at that offset. While the run lasts, a connection that ends is replaced by a new one.
 *
 * <p>Client-side faults are executed by the owning thread: reset (SO_LINGER 0, then close), half-close
 * (shutdownOutput, then every byte sent must come back before end-of-stream) and stalls (the connection stops
 * reading for a while and writes within a 1 MiB window, so the server's writes back up).
 *
 * <p>A connection that ends without a fault, its own or one the server recorded for it, is an unexpected
 * disconnect. At the end ({@link Phase#DRAIN}) every connection still open must get all its bytes back.
 */
final class SoakClients {

    enum Phase {
        RUN, DRAIN, CLOSE_HALF, CLOSE_ALL
    }

    private static final int CONNECTING = 0;
    private static final int ACTIVE = 1;
    private static final int HALF_CLOSED = 2;
    private static final int DRAINED = 3;
    private static final int ENDED = 4;
    private static final String[] STATES = {"connecting", "active", "half-closed", "drained", "ended"};

    /**
     * Connections of one thread connecting or not yet accepted by the server, at most. New connections wait for
     * the server's accept loop: were they opened faster than it accepts, the kernel's accept queue would
     * overflow and drop or reset them, whatever the server's correctness.
     */
    private static final int MAX_PENDING_PER_THREAD = 64;
    private static final int[] CHUNKS = {64, 1024, 8192, 65536};
    /** Bytes a stalled connection may have unanswered: more than its socket buffers hold, so the server's writes back up. */
    private static final long STALL_WINDOW = 1 << 20;

    private final SoakStats stats;
    private final SoakServer server;
    private final InetSocketAddress address;
    private final ClientThread[] threads;
    private final int maxStallMillis;
    /** The largest window of a connection: its share of the run's bytes in flight. */
    private final long maxWindow;
    /** Connections that may receive a client-side fault. */
    final SoakRegistry<Conn> active = new SoakRegistry<>();
    private volatile Phase phase = Phase.RUN;

    SoakClients(int connections, int threadCount, InetSocketAddress address, SoakServer server, SoakStats stats,
                long seed, int maxStallMillis, long inFlightBytes) throws IOException {
        this.stats = stats;
        this.server = server;
        this.address = address;
        this.maxStallMillis = maxStallMillis;
        this.maxWindow = Math.max(4096, inFlightBytes / Math.max(1, connections));
        int n = Math.max(1, Math.min(threadCount, connections));
        this.threads = new ClientThread[n];
        for (int i = 0; i < n; i++) {
            int target = connections / n + (i < connections % n ? 1 : 0);
            threads[i] = new ClientThread(i, target, SoakPattern.mix(seed + 0x1000 * (i + 1)));
        }
    }

    void start() {
        for (ClientThread t : threads) {
            t.start();
        }
    }

    void phase(Phase p) {
        phase = p;
        for (ClientThread t : threads) {
            t.selector.wakeup();
        }
    }

    boolean rampedUp() {
        for (ClientThread t : threads) {
            if (!t.rampedUp && t.isAlive()) {
                return false;
            }
        }
        return true;
    }

    boolean drained() {
        for (ClientThread t : threads) {
            if (!t.drained && t.isAlive()) {
                return false;
            }
        }
        return true;
    }

    boolean closedHalf() {
        for (ClientThread t : threads) {
            if (!t.closedHalf && t.isAlive()) {
                return false;
            }
        }
        return true;
    }

    /** Joins every client thread within the deadline; returns whether all ended. */
    boolean join(long deadlineNanos) throws InterruptedException {
        for (ClientThread t : threads) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
            t.join(Math.max(1, left));
        }
        for (ClientThread t : threads) {
            if (t.isAlive()) {
                return false;
            }
        }
        return true;
    }

    int live() {
        int n = 0;
        for (ClientThread t : threads) {
            n += t.liveCount;
        }
        return n;
    }

    // ---------------------------------------------------------------- fault injection (from a foreign thread)

    void reset(SplittableRandom rnd) {
        Conn c = active.random(rnd);
        if (c != null) {
            c.owner.command(() -> c.owner.reset(c));
        }
    }

    void halfClose(SplittableRandom rnd) {
        Conn c = active.random(rnd);
        if (c != null) {
            c.owner.command(() -> c.owner.halfClose(c));
        }
    }

    void stall(SplittableRandom rnd) {
        Conn c = active.random(rnd);
        if (c != null) {
            long millis = 100 + rnd.nextInt(Math.max(1, maxStallMillis - 100));
            c.owner.command(() -> c.owner.stall(c, millis));
        }
    }

    /**
     * Makes a random active connection quiet (it neither reads nor writes until {@link #release}d) and returns it
     * once its thread has done so, or null.
     */
    Conn quiet(SplittableRandom rnd, long guardMillis) throws InterruptedException {
        Conn c = active.random(rnd);
        if (c == null) {
            return null;
        }
        CountDownLatch done = new CountDownLatch(1);
        AtomicBoolean quiet = new AtomicBoolean();
        c.owner.command(() -> {
            quiet.set(c.owner.quiet(c));
            done.countDown();
        });
        if (!done.await(guardMillis, TimeUnit.MILLISECONDS)) {
            c.owner.command(() -> c.owner.release(c));
            return null;
        }
        return quiet.get() ? c : null;
    }

    void release(Conn c) {
        c.owner.command(() -> c.owner.release(c));
    }

    // ---------------------------------------------------------------- a connection

    static final class Conn {
        final ClientThread owner;
        final long id;
        final long seed;
        SocketChannel sc;
        SelectionKey key;
        InetSocketAddress local;
        long connectStarted;
        int state = CONNECTING;
        long sent;
        long received;
        long window;
        int maxChunk;
        long stallUntil;
        boolean draining;
        long drainTarget;
        boolean corrupted;
        /** Neither reads nor writes (a cancel probe is looking at its server connection). */
        boolean quiet;

        Conn(ClientThread owner, long id, long seed) {
            this.owner = owner;
            this.id = id;
            this.seed = seed;
        }

        @Override
        public String toString() {
            return "client connection " + owner.index + "/" + id + " " + local + " (" + STATES[state]
                    + (stallUntil != 0 ? ", stalled" : "") + (quiet ? ", quiet" : "") + (draining ? ", draining" : "") + ", sent " + sent
                    + ", received " + received + ")";
        }
    }

    // ---------------------------------------------------------------- a client thread

    final class ClientThread extends Thread {
        final int index;
        final int target;
        final Selector selector;
        private final SplittableRandom rnd;
        private final Set<Conn> conns = new LinkedHashSet<>();
        private final List<Conn> stalled = new ArrayList<>();
        /** Connected, not yet seen accepted by the server. */
        private final List<Conn> unaccepted = new ArrayList<>();
        private final Queue<Runnable> commands = new ConcurrentLinkedQueue<>();
        private final ByteBuffer rbuf = ByteBuffer.allocateDirect(64 * 1024);
        private final ByteBuffer wbuf = ByteBuffer.allocateDirect(64 * 1024);
        private final long[] mismatches = new long[1];
        private int connecting;
        private int established;
        private long nextId;
        private Phase seen = Phase.RUN;
        volatile int liveCount;
        volatile boolean rampedUp;
        volatile boolean drained;
        volatile boolean closedHalf;

        ClientThread(int index, int target, long seed) throws IOException {
            super("soak-client-" + index);
            setDaemon(true);
            this.index = index;
            this.target = target;
            this.rnd = new SplittableRandom(seed);
            this.selector = Selector.open();
        }

        void command(Runnable r) {
            commands.add(r);
            selector.wakeup();
        }

        @Override
        public void run() {
            try {
                loop();
            } catch (Throwable t) {
                stats.clientThreadFailures.increment();
                stats.detail("client thread failure", t.toString());
                t.printStackTrace();
            } finally {
                for (Conn c : new ArrayList<>(conns)) {
                    close(c);
                }
                try {
                    selector.close();
                } catch (IOException e) {
                    // nothing more to do
                }
            }
        }

        private void loop() throws IOException {
            while (true) {
                Phase p = phase;
                if (p != seen) {
                    seen = p;
                    onPhase(p);
                }
                if (p == Phase.CLOSE_ALL) {
                    return;
                }
                for (Runnable r = commands.poll(); r != null; r = commands.poll()) {
                    r.run(); // each checks the connection's state: after RUN they find nothing to do
                }
                if (p == Phase.RUN) {
                    openMore();
                }
                selector.select(5);
                Set<SelectionKey> keys = selector.selectedKeys();
                for (SelectionKey k : keys) {
                    handle(k);
                }
                keys.clear();
                tickStalls();
                liveCount = conns.size();
                if (!rampedUp && established >= target) {
                    rampedUp = true;
                }
                if (p == Phase.DRAIN && !drained && allDrained()) {
                    drained = true;
                }
            }
        }

        private void onPhase(Phase p) {
            switch (p) {
                case DRAIN -> {
                    for (Conn c : new ArrayList<>(conns)) {
                        if (c.state == ACTIVE) {
                            startDrain(c);
                        }
                    }
                }
                case CLOSE_HALF -> {
                    boolean close = false;
                    SoakTcpTable tcp = allDrained() ? null : SoakTcpTable.read();
                    for (Conn c : new ArrayList<>(conns)) {
                        if (c.state != DRAINED) {
                            stats.drainIncomplete.increment();
                            stats.detail("drain incomplete", c + " never got all its bytes back"
                                    + (c.state == HALF_CLOSED ? " and end-of-stream after its half-close" : "")
                                    + "; client socket: " + probeSocket(c) + tcpState(tcp, c)
                                    + "; server side: " + server.describe(c.local, c.connectStarted));
                            if (c.received == 0 && c.state != HALF_CLOSED) {
                                stats.noProgress.increment();
                            }
                            close(c);
                            continue;
                        }
                        if (close) {
                            close(c); // graceful: the server sees end-of-stream; the rest stay open for close()
                        }
                        close = !close;
                    }
                    closedHalf = true;
                }
                default -> {
                }
            }
        }

        /** The kernel's state of both ends of a stuck connection. */
        private String tcpState(SoakTcpTable tcp, Conn c) {
            if (c.local == null) {
                return "";
            }
            return "; kernel: client end " + tcp.describe(c.local.getPort(), address.getPort()) + "; server end "
                    + tcp.describe(address.getPort(), c.local.getPort());
        }

        /** What a stuck connection's socket holds right now (for the report; consumes it). */
        private String probeSocket(Conn c) {
            StringBuilder b = new StringBuilder("key ");
            b.append(c.key == null ? "none" : c.key.isValid() ? "valid, interest " + c.key.interestOps() : "cancelled");
            long waiting = 0;
            try {
                for (int i = 0; i < 1000; i++) {
                    rbuf.clear();
                    int n = c.sc.read(rbuf);
                    if (n <= 0) {
                        b.append(n < 0 ? ", end-of-stream" : "");
                        break;
                    }
                    waiting += n;
                }
            } catch (IOException e) {
                b.append(", read failed: ").append(e);
            }
            return b.append(", ").append(waiting).append(" bytes were waiting to be read").toString();
        }

        private boolean allDrained() {
            for (Conn c : conns) {
                if (c.state != DRAINED) {
                    return false;
                }
            }
            return true;
        }

        private void openMore() {
            for (int i = unaccepted.size() - 1; i >= 0; i--) {
                Conn c = unaccepted.get(i);
                if (server.wasAccepted(c.local, c.connectStarted)) {
                    unaccepted.remove(i);
                }
            }
            while (conns.size() < target && connecting + unaccepted.size() < MAX_PENDING_PER_THREAD) {
                if (!open()) {
                    return;
                }
            }
        }

        private boolean open() {
            Conn c = new Conn(this, nextId++, SoakPattern.mix(rnd.nextLong()));
            int w = rnd.nextInt(4);
            c.window = Math.min(maxWindow, w == 0 ? maxWindow : w < 3 ? 1 + rnd.nextInt(8192)
                    : 16384 + rnd.nextInt(128 * 1024));
            c.maxChunk = CHUNKS[rnd.nextInt(CHUNKS.length)];
            try {
                c.sc = SocketChannel.open();
                c.sc.configureBlocking(false);
                c.sc.setOption(StandardSocketOptions.TCP_NODELAY, true);
                // No small SO_RCVBUF here: on loopback (MSS 64 KiB) a receive buffer below two segments gets its
                // window reopened only by the sender's zero-window probes, whose backoff would stall the echo
                // for minutes: a TCP artefact, not the server's doing.
                c.connectStarted = System.nanoTime();
                boolean now = c.sc.connect(address);
                c.key = c.sc.register(selector, now ? 0 : SelectionKey.OP_CONNECT, c);
                conns.add(c);
                connecting++;
                stats.connectionsOpened.increment();
                if (now) {
                    connected(c);
                }
                return true;
            } catch (IOException e) {
                stats.connectFailures.increment();
                stats.unexpectedDisconnects.increment();
                stats.detail("unexpected disconnect", "opening a connection failed: " + e);
                if (c.sc != null) {
                    try {
                        c.sc.close();
                    } catch (IOException ignored) {
                        // nothing more to do
                    }
                }
                return false;
            }
        }

        private void handle(SelectionKey k) {
            Conn c = (Conn) k.attachment();
            try {
                if (!k.isValid()) {
                    return;
                }
                int ready = k.readyOps();
                if ((ready & SelectionKey.OP_CONNECT) != 0) {
                    finishConnect(c);
                    return;
                }
                if ((ready & SelectionKey.OP_READ) != 0) {
                    readable(c);
                }
                if ((ready & SelectionKey.OP_WRITE) != 0 && k.isValid()) {
                    pumpWrite(c);
                }
            } catch (CancelledKeyException e) {
                // closed meanwhile
            }
        }

        private void finishConnect(Conn c) {
            try {
                if (!c.sc.finishConnect()) {
                    return;
                }
            } catch (IOException e) {
                stats.connectFailures.increment();
                lost(c, "connect failed: " + e);
                return;
            }
            connected(c);
        }

        private void connected(Conn c) {
            connecting--;
            established++;
            c.state = ACTIVE;
            try {
                c.local = (InetSocketAddress) c.sc.getLocalAddress();
            } catch (IOException e) {
                lost(c, "no local address: " + e);
                return;
            }
            unaccepted.add(c);
            if (seen == Phase.RUN) {
                active.add(c);
            } else {
                startDrain(c);
                return;
            }
            pumpWrite(c);
        }

        private void readable(Conn c) {
            if (c.state != ACTIVE && c.state != HALF_CLOSED || c.quiet) {
                return;
            }
            for (int i = 0; i < 4; i++) {
                rbuf.clear();
                int n;
                try {
                    n = c.sc.read(rbuf);
                } catch (IOException e) {
                    lost(c, "read failed: " + e);
                    return;
                }
                if (n < 0) {
                    lost(c, "end-of-stream");
                    return;
                }
                if (n == 0) {
                    break;
                }
                rbuf.flip();
                mismatches[0] = 0;
                long first = SoakPattern.verify(c.seed, c.received, rbuf.duplicate(), mismatches);
                long excess = Math.max(0, c.received + n - Math.max(c.sent, c.received));
                long bad = Math.max(mismatches[0], excess);
                if (bad > 0) {
                    stats.bytesCorrupted.add(bad);
                    if (!c.corrupted) {
                        c.corrupted = true;
                        stats.detail("corrupted", c + ": " + mismatches[0] + " of " + n + " bytes read at offset "
                                + c.received + " differ, first at offset " + first
                                + (excess > 0 ? "; " + excess + " bytes more than were sent" : "")
                                + "; " + SoakPattern.explain(c.seed, c.received, rbuf, c.sent));
                    }
                }
                c.received += n;
                stats.bytesEchoed.add(n);
            }
            if (c.draining && c.state == ACTIVE && c.sent > 0 && c.received >= c.sent) {
                c.state = DRAINED;
                stats.drained.increment();
                c.key.interestOps(0);
                return;
            }
            pumpWrite(c);
        }

        private void pumpWrite(Conn c) {
            if (c.state != ACTIVE) {
                return;
            }
            if (c.quiet) {
                interest(c, false);
                return;
            }
            long allowed;
            if (c.draining) {
                allowed = c.drainTarget - c.sent;
            } else if (c.stallUntil != 0) {
                allowed = STALL_WINDOW - (c.sent - c.received);
            } else {
                allowed = c.window - (c.sent - c.received);
            }
            boolean wantWrite = false;
            for (int round = 0; allowed > 0; round++) {
                if (round == 4) {
                    wantWrite = true; // let the others have a turn; the selector brings us back
                    break;
                }
                int len = (int) Math.min(Math.min(allowed, 1 + rnd.nextInt(c.maxChunk)), wbuf.capacity());
                wbuf.clear();
                SoakPattern.fill(c.seed, c.sent, wbuf, len);
                wbuf.flip();
                int n;
                try {
                    n = c.sc.write(wbuf);
                } catch (IOException e) {
                    lost(c, "write failed: " + e);
                    return;
                }
                c.sent += n;
                stats.bytesSent.add(n);
                allowed -= n;
                if (n < len) {
                    wantWrite = true;
                    break;
                }
            }
            interest(c, wantWrite);
        }

        private void interest(Conn c, boolean wantWrite) {
            int ops = c.quiet ? 0
                    : (c.stallUntil == 0 ? SelectionKey.OP_READ : 0) | (wantWrite ? SelectionKey.OP_WRITE : 0);
            if (c.key.isValid()) {
                c.key.interestOps(ops);
            }
        }

        private void startDrain(Conn c) {
            c.draining = true;
            c.quiet = false;
            active.remove(c);
            if (c.stallUntil != 0) {
                c.stallUntil = 0;
                stalled.remove(c);
            }
            c.drainTarget = c.sent > 0 ? c.sent : 1 + rnd.nextInt(64); // every connection must make progress
            if (c.sent > 0 && c.received >= c.sent) {
                c.state = DRAINED;
                stats.drained.increment();
                c.key.interestOps(0);
                return;
            }
            pumpWrite(c);
        }

        private void tickStalls() {
            if (stalled.isEmpty()) {
                return;
            }
            long now = System.nanoTime();
            for (int i = stalled.size() - 1; i >= 0; i--) {
                Conn c = stalled.get(i);
                if (now - c.stallUntil >= 0) {
                    stalled.remove(i);
                    c.stallUntil = 0;
                    pumpWrite(c); // reads again
                }
            }
        }

        // ---------------------------------------------------------------- faults, run by this thread

        void reset(Conn c) {
            if (c.state != ACTIVE || c.draining) {
                return;
            }
            stats.faultClientRst.increment();
            try {
                c.sc.setOption(StandardSocketOptions.SO_LINGER, 0);
            } catch (IOException e) {
                // closing anyway
            }
            close(c);
        }

        void halfClose(Conn c) {
            // A quiet connection belongs to a cancel probe: half-closed then, it kept no read interest after the
            // probe released it (release re-arms only ACTIVE connections) and never read its last echoed bytes.
            if (c.state != ACTIVE || c.draining || c.quiet) {
                return;
            }
            if (c.stallUntil != 0) {
                c.stallUntil = 0;
                stalled.remove(c);
            }
            active.remove(c);
            stats.faultClientHalfClose.increment();
            try {
                c.sc.shutdownOutput();
            } catch (IOException e) {
                lost(c, "shutdownOutput failed: " + e);
                return;
            }
            c.state = HALF_CLOSED;
            interest(c, false);
        }

        void stall(Conn c, long millis) {
            if (c.state != ACTIVE || c.draining || c.stallUntil != 0) {
                return;
            }
            stats.faultStall.increment();
            c.stallUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
            if (c.stallUntil == 0) {
                c.stallUntil = 1;
            }
            stalled.add(c);
            pumpWrite(c); // a large window while stalled: writes until the sockets are full
        }

        boolean quiet(Conn c) {
            if (c.state != ACTIVE || c.draining || c.quiet) {
                return false;
            }
            if (c.stallUntil != 0) {
                c.stallUntil = 0;
                stalled.remove(c);
            }
            c.quiet = true;
            active.remove(c);
            interest(c, false);
            return true;
        }

        void release(Conn c) {
            if (!c.quiet) {
                return;
            }
            c.quiet = false;
            if (c.state == ACTIVE && !c.draining) {
                if (seen == Phase.RUN) {
                    active.add(c);
                }
                pumpWrite(c);
            }
        }

        // ---------------------------------------------------------------- endings

        /** The connection ended on its own (end-of-stream or an error): expected only after a fault. */
        private void lost(Conn c, String how) {
            String serverFault = server.faultFor(c.local, c.connectStarted);
            if (c.state == HALF_CLOSED && c.received == c.sent && how.equals("end-of-stream")) {
                stats.halfClosesCompleted.increment();
            } else if (serverFault != null) {
                stats.serverFaultDisconnects.increment();
            } else if (c.state == HALF_CLOSED) {
                stats.halfClosesTruncated.increment();
                stats.detail("half-close truncated", c + ": " + how + " before every byte came back");
            } else if (c.state != DRAINED) {
                stats.unexpectedDisconnects.increment();
                stats.detail("unexpected disconnect", c + ": " + how + " without any fault injected; server side: "
                        + server.describe(c.local, c.connectStarted));
            }
            close(c);
        }

        private void close(Conn c) {
            if (c.state == CONNECTING) {
                connecting--;
            }
            c.state = ENDED;
            conns.remove(c);
            active.remove(c);
            unaccepted.remove(c);
            if (c.stallUntil != 0) {
                c.stallUntil = 0;
                stalled.remove(c);
            }
            if (c.key != null) {
                c.key.cancel();
            }
            try {
                c.sc.close();
            } catch (IOException e) {
                // nothing more to do
            }
        }
    }
}
