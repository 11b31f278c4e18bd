package dev.proactor.conformance;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.Demultiplexor;
import dev.proactor.OpAccept;
import dev.proactor.OpRead;
import dev.proactor.OpWrite;
import dev.proactor.OperationCancelledException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The soak's echo service: a listening channel on loopback whose accept loop adopts every connection with a
 * {@link SoakConnection}. Also the server side of the fault injection: closes and cancels from foreign threads,
 * and handler failures planted in connections.
 */
final class SoakServer implements AsynchHandler {

    private final SoakStats stats;
    private final SplittableRandom seeds;
    private final Object acceptLock = new Object();
    private final OpLedger acceptLedger;
    final AsynchChannel listener;
    /** Open connections: the victims of server-side faults. */
    final SoakRegistry<SoakConnection> live = new SoakRegistry<>();
    private static final int CONNECTIONS_PER_ADDRESS = 4;
    private static final SoakConnection[] NONE = {};
    /**
     * The latest server connections per client address (the client's local address), oldest first, at most
     * {@value #CONNECTIONS_PER_ADDRESS}. A client port serves a later connection while the client still holds the
     * earlier one's socket: a connection reset by the server releases its port in the kernel before the client has
     * read the reset. Each array is replaced, never modified, so readers need no lock.
     */
    private final Map<InetSocketAddress, SoakConnection[]> byRemote = new ConcurrentHashMap<>();
    private final Queue<SoakConnection> failedByHandler = new ConcurrentLinkedQueue<>();
    private volatile boolean faultsEnabled = true;
    private long ids;

    SoakServer(Demultiplexor demux, SoakStats stats, long seed) throws IOException {
        this.stats = stats;
        this.seeds = new SplittableRandom(seed);
        this.acceptLedger = new OpLedger(stats, "listener accept");
        this.listener = AsynchChannel.openServer(demux, this, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                4096);
        accept();
    }

    InetSocketAddress address() throws IOException {
        return (InetSocketAddress) listener.getLocalAddress();
    }

    private void accept() {
        synchronized (acceptLock) {
            OpLedger.Token t = new OpLedger.Token(acceptLedger.nextSeq());
            acceptLedger.started(t);
            try {
                listener.accept(t);
            } catch (RuntimeException e) {
                acceptLedger.startFailed(t, e);
            }
        }
    }

    @Override
    public void onAcceptCompleted(OpAccept op) {
        boolean entered = acceptLedger.enter();
        try {
            if (acceptLedger.completed(op.getAttachment()) == null) {
                return;
            }
            Throwable error = op.getError();
            if (error == null) {
                SoakConnection c;
                synchronized (acceptLock) {
                    c = new SoakConnection(this, stats, ids++, seeds.nextLong());
                }
                try {
                    c.start(op.adopt(c));
                    stats.accepted.increment();
                } catch (IOException | RuntimeException e) {
                    stats.acceptErrors.increment();
                    stats.detail("accept error", "adopt failed: " + e);
                }
            } else if (error instanceof OperationCancelledException) {
                stats.cancelledAccepts.increment();
            } else if (error instanceof ClosedChannelException && !listener.isOpen()) {
                return; // the demultiplexor is closing
            } else {
                stats.acceptErrors.increment();
                stats.detail("accept error", String.valueOf(error));
            }
            if (listener.isOpen()) {
                accept();
            }
        } finally {
            acceptLedger.exit(entered);
        }
    }

    @Override
    public void onReadCompleted(OpRead op) {
        stats.detail("listener", "read completion on the listener: " + op);
    }

    @Override
    public void onWriteCompleted(OpWrite op) {
        stats.detail("listener", "write completion on the listener: " + op);
    }

    // ---------------------------------------------------------------- connections

    void connected(SoakConnection c) {
        if (c.remote != null) {
            byRemote.merge(c.remote, new SoakConnection[] {c}, (older, added) -> {
                int keep = Math.min(older.length, CONNECTIONS_PER_ADDRESS - 1);
                SoakConnection[] l = Arrays.copyOfRange(older, older.length - keep, older.length + 1);
                l[keep] = c;
                return l;
            });
        }
        live.add(c);
    }

    void disconnected(SoakConnection c) {
        live.remove(c);
    }

    void failedByHandler(SoakConnection c) {
        failedByHandler.add(c);
    }

    /**
     * The server connection of the client connection at {@code clientAddress} whose connect began at
     * {@code connectStartedNanos}: the first accepted from that address after the connect began (later ones belong
     * to later connections from the same port), or null if none was accepted (yet).
     */
    private SoakConnection serverSideOf(InetSocketAddress clientAddress, long connectStartedNanos) {
        if (clientAddress == null) {
            return null;
        }
        for (SoakConnection c : byRemote.getOrDefault(clientAddress, NONE)) {
            if (c.createdNanos - connectStartedNanos >= 0) {
                return c;
            }
        }
        return null;
    }

    /**
     * The server-side fault that ended the connection of the client at {@code clientAddress} whose connect began
     * at {@code connectStartedNanos}, or null if there was none.
     */
    String faultFor(InetSocketAddress clientAddress, long connectStartedNanos) {
        SoakConnection c = serverSideOf(clientAddress, connectStartedNanos);
        return c == null ? null : c.fault;
    }

    /** The open server connection of the client at {@code clientAddress} (connect begun at the time given), or null. */
    SoakConnection connectionOf(InetSocketAddress clientAddress, long connectStartedNanos) {
        SoakConnection c = serverSideOf(clientAddress, connectStartedNanos);
        return c == null || c.isDead() ? null : c;
    }

    /** Whether the connection of the client at {@code clientAddress} (connect begun at the time given) was accepted. */
    boolean wasAccepted(InetSocketAddress clientAddress, long connectStartedNanos) {
        return serverSideOf(clientAddress, connectStartedNanos) != null;
    }

    /** The state of the server connection of the client at {@code clientAddress}, for a report. */
    String describe(InetSocketAddress clientAddress, long connectStartedNanos) {
        SoakConnection c = serverSideOf(clientAddress, connectStartedNanos);
        return c == null ? "no server connection accepted" : c.describe();
    }

    /** Channels whose handler failed on purpose and that are still open (the framework must close them). */
    List<SoakConnection> failedButOpen() {
        List<SoakConnection> open = new ArrayList<>();
        for (SoakConnection c : failedByHandler) {
            if (c.channel.isOpen()) {
                open.add(c);
            }
        }
        return open;
    }

    int failedByHandlerCount() {
        return failedByHandler.size();
    }

    // ---------------------------------------------------------------- fault injection (foreign threads)

    boolean faultsEnabled() {
        return faultsEnabled;
    }

    void disableFaults() {
        faultsEnabled = false;
    }

    /** Closes a random connection from this (foreign) thread. */
    void closeRandom(SplittableRandom rnd) {
        SoakConnection c = live.random(rnd);
        if (c == null) {
            return;
        }
        c.fault = "server close";
        stats.faultServerClose.increment();
        c.channel.close();
    }

    /** Cancels random connections, each one to three times in a row, sometimes the listener too. */
    void cancelStorm(SplittableRandom rnd) {
        stats.faultCancelStorms.increment();
        int victims = 1 + rnd.nextInt(16);
        for (int i = 0; i < victims; i++) {
            SoakConnection c = live.random(rnd);
            if (c == null) {
                break;
            }
            int times = 1 + rnd.nextInt(3);
            for (int k = 0; k < times; k++) {
                c.channel.cancel();
                stats.faultCancelCalls.increment();
            }
        }
        if (rnd.nextInt(8) == 0) {
            listener.cancel();
            stats.faultCancelCalls.increment();
        }
    }

    /** Plants a handler failure in a random connection: its next callback throws. */
    void plantHandlerFault(SplittableRandom rnd, SoakConnection.HandlerFault f) {
        SoakConnection c = live.random(rnd);
        if (c != null && c.pendingFault == null) {
            c.pendingFault = f;
            stats.handlerFaultsPlanted.increment();
        }
    }
}
