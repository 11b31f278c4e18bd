package dev.proactor.conformance;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.BufferOp;
import dev.proactor.OpRead;
import dev.proactor.OpWrite;
import dev.proactor.OperationCancelledException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.SplittableRandom;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The soak server's handler of one accepted connection: echoes every byte, in order, until end-of-stream (then
 * finishes echoing what it got and closes) or an error.
 *
 * <p>It keeps up to {@code maxReads} reads pending at once (each into a fresh chunk, sometimes a scattering read
 * into two). It has one write of data pending at a time (sometimes a gathering write of two chunks), often
 * followed by an empty write (a marker): so several operations of each direction are often pending together,
 * as close and cancel find them. (Two writes of data pending at once could not be resumed in order after a
 * cancel: one started after the {@code cancel()} call is not cancelled and would overtake the rest of the one
 * cancelled. Reads have no such problem: a cancelled read has read nothing.) Read data waiting to be written is
 * limited ({@link #PENDING_LIMIT}): a client that stops reading makes the server's writes back up and then its
 * reads stop, as a real server's would.
 *
 * <p>A cancelled operation ({@link OperationCancelledException}) is not an error: a cancelled read is issued
 * again; the unwritten rest of a cancelled write is written next. Other errors close the channel.
 *
 * <p>Every start and every callback goes through the direction's {@link OpLedger}.
 */
final class SoakConnection implements AsynchHandler {

    /** Read bytes not yet written back, plus buffer space of pending reads, at most. */
    static final int PENDING_LIMIT = 32 * 1024;
    private static final int[] BUFFER_SIZES = {61, 512, 4096, 8192};

    /** What an injected handler failure throws. */
    enum HandlerFault {
        RUNTIME, ERROR, STACK_OVERFLOW
    }

    /** The custom Error thrown by an injected handler failure. */
    static final class InjectedError extends Error {
        private static final long serialVersionUID = 1L;

        InjectedError(String message) {
            super(message);
        }
    }

    /** Where a chunk is; every move is checked, so that a chunk in two places is the test's bug, reported. */
    private enum Place {
        FREE, READING, QUEUED, WRITING
    }

    /** A buffer of the connection. */
    private static final class Chunk {
        final ByteBuffer buf;
        Place place = Place.FREE;

        Chunk(ByteBuffer buf) {
            this.buf = buf;
        }
    }

    /** The attachment of a read or write: its chunks and, for writes, where each started and how much it had. */
    private static final class IoToken extends OpLedger.Token {
        final Chunk[] chunks;
        final int[] starts;
        final int[] lengths;
        final long total;

        IoToken(long seq, Chunk[] chunks) {
            super(seq);
            this.chunks = chunks;
            this.starts = new int[chunks.length];
            this.lengths = new int[chunks.length];
            long sum = 0;
            for (int i = 0; i < chunks.length; i++) {
                starts[i] = chunks[i].buf.position();
                lengths[i] = chunks[i].buf.remaining();
                sum += lengths[i];
            }
            this.total = sum;
        }

        @Override
        public String toString() {
            return "#" + seq;
        }
    }

    private final SoakServer server;
    private final SoakStats stats;
    final long id;
    /** When this object was made: later than the start of its client's connect. */
    final long createdNanos = System.nanoTime();
    final OpLedger input;
    final OpLedger output;
    private final int bufferSize;
    private final int maxReads;
    /** One in this many writes of data is followed by an empty write. */
    private final int markerEvery;
    private final int sendBuffer;

    volatile AsynchChannel channel;
    volatile InetSocketAddress remote;
    /** Set, before it is injected, by a fault that ends this connection; the client is excused then. */
    volatile String fault;
    /** A handler failure the next callback throws. */
    volatile HandlerFault pendingFault;

    // Guarded by this.
    private final SplittableRandom rnd;
    private final ArrayDeque<Chunk> free = new ArrayDeque<>();
    private final ArrayDeque<Chunk> toWrite = new ArrayDeque<>();
    private long bytesIn;
    private long bytesOut;
    private long pendingBytes;
    private long reservedBytes;
    private int readsInFlight;
    private int writesInFlight;
    private boolean dataWriteInFlight;
    private boolean eof;
    private boolean dead;

    SoakConnection(SoakServer server, SoakStats stats, long id, long seed) {
        this.server = server;
        this.stats = stats;
        this.id = id;
        this.rnd = new SplittableRandom(seed);
        this.input = new OpLedger(stats, "server connection " + id + " input");
        this.output = new OpLedger(stats, "server connection " + id + " output");
        this.bufferSize = BUFFER_SIZES[rnd.nextInt(BUFFER_SIZES.length)];
        this.maxReads = 1 + rnd.nextInt(2);
        this.markerEvery = 1 + rnd.nextInt(4);
        this.sendBuffer = 4096 << rnd.nextInt(5); // 4-64 KiB: writes back up soon, kernel memory stays small
    }

    /** Called by the acceptor right after adoption, inside the accept callback. */
    void start(AsynchChannel ch) {
        channel = ch;
        try {
            remote = (InetSocketAddress) ch.getRemoteAddress();
        } catch (IOException e) {
            remote = null; // the peer has reset it already
        }
        try {
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            ch.setOption(StandardSocketOptions.SO_SNDBUF, sendBuffer);
        } catch (IOException e) {
            // closed by the peer already: the first read reports it
        }
        server.connected(this);
        synchronized (this) {
            pumpReads();
        }
    }

    // ---------------------------------------------------------------- callbacks

    @Override
    public void onReadCompleted(OpRead op) {
        boolean entered = input.enter();
        try {
            IoToken t = (IoToken) input.completed(op.getAttachment());
            if (t == null) {
                return;
            }
            injectIfPending();
            maybeSpin();
            synchronized (this) {
                checkBuffers(op, t);
                readsInFlight--;
                reservedBytes -= t.total;
                Throwable error = op.getError();
                if (error == null && !op.isEndOfStream()) {
                    long got = 0;
                    for (Chunk c : t.chunks) {
                        c.buf.flip();
                        int r = c.buf.remaining();
                        if (r > 0) {
                            got += r;
                            move(c, Place.READING, Place.QUEUED);
                            toWrite.addLast(c);
                        } else {
                            recycle(c, Place.READING);
                        }
                    }
                    bytesIn += got;
                    pendingBytes += got;
                    if (got != op.getBytesCompleted() || got <= 0) {
                        stats.bufferAnomalies.increment();
                        stats.detail("buffer anomaly", "connection " + id + ": read of "
                                + op.getBytesCompleted() + " bytes left " + got + " bytes in its buffers");
                    }
                } else {
                    for (Chunk c : t.chunks) {
                        recycle(c, Place.READING);
                    }
                    if (error == null) {
                        eof = true;
                    } else if (error instanceof OperationCancelledException) {
                        stats.cancelledReads.increment();
                    } else {
                        failed(error);
                    }
                }
                pumpWrites();
                pumpReads();
                finishIfDone();
            }
        } finally {
            input.exit(entered);
        }
    }

    @Override
    public void onWriteCompleted(OpWrite op) {
        boolean entered = output.enter();
        try {
            IoToken t = (IoToken) output.completed(op.getAttachment());
            if (t == null) {
                return;
            }
            injectIfPending();
            maybeSpin();
            synchronized (this) {
                checkBuffers(op, t);
                writesInFlight--;
                if (t.chunks.length > 0) {
                    dataWriteInFlight = false;
                }
                Throwable error = op.getError();
                long n = op.getBytesCompleted();
                if (error == null) {
                    if (n != t.total) {
                        stats.bufferAnomalies.increment();
                        stats.detail("buffer anomaly", "connection " + id + ": successful write of " + t.total
                                + " bytes reports " + n);
                    }
                    for (Chunk c : t.chunks) {
                        recycle(c, Place.WRITING);
                    }
                    pendingBytes -= t.total;
                    bytesOut += t.total;
                    stats.serverBytesWritten.add(t.total);
                } else if (error instanceof OperationCancelledException) {
                    stats.cancelledWrites.increment();
                    if (n < 0 || n > t.total) {
                        stats.bufferAnomalies.increment();
                        stats.detail("buffer anomaly", "connection " + id + ": cancelled write of " + t.total
                                + " bytes reports " + n + " written");
                        n = Math.max(0, Math.min(n, t.total));
                    }
                    pendingBytes -= n;
                    bytesOut += n;
                    stats.serverBytesWritten.add(n);
                    for (int i = t.chunks.length - 1; i >= 0; i--) {
                        // the unwritten rest goes first, before everything read later
                        Chunk c = t.chunks[i];
                        int written = (int) Math.max(0, Math.min(n - prefix(t, i), t.lengths[i]));
                        c.buf.position(t.starts[i] + written);
                        if (c.buf.hasRemaining()) {
                            move(c, Place.WRITING, Place.QUEUED);
                            toWrite.addFirst(c);
                        } else {
                            recycle(c, Place.WRITING);
                        }
                    }
                } else {
                    failed(error);
                }
                pumpWrites();
                pumpReads();
                finishIfDone();
            }
        } finally {
            output.exit(entered);
        }
    }

    /** Bytes of the write's chunks before chunk {@code i}. */
    private static long prefix(IoToken t, int i) {
        long sum = 0;
        for (int k = 0; k < i; k++) {
            sum += t.lengths[k];
        }
        return sum;
    }

    // ---------------------------------------------------------------- starting operations (lock held)

    private void pumpReads() {
        while (!dead && !eof && readsInFlight < maxReads
                && pendingBytes + reservedBytes + bufferSize <= PENDING_LIMIT) {
            boolean scatter = rnd.nextInt(4) == 0 && pendingBytes + reservedBytes + 2L * bufferSize <= PENDING_LIMIT;
            Chunk[] chunks = scatter ? new Chunk[] {take(), take()} : new Chunk[] {take()};
            IoToken t = new IoToken(input.nextSeq(), chunks);
            readsInFlight++;
            reservedBytes += t.total;
            input.started(t);
            try {
                if (scatter) {
                    channel.read(new ByteBuffer[] {chunks[0].buf, chunks[1].buf}, 0, 2, t);
                } else {
                    channel.read(chunks[0].buf, t);
                }
                t.submitted = true;
            } catch (RuntimeException e) {
                input.startFailed(t, e);
                readsInFlight--;
                reservedBytes -= t.total;
                failed(e);
                return;
            }
        }
    }

    private void pumpWrites() {
        if (dead || dataWriteInFlight || toWrite.isEmpty()) {
            return;
        }
        boolean gather = toWrite.size() >= 2 && rnd.nextInt(4) == 0;
        Chunk[] chunks = gather ? new Chunk[] {toWrite.pollFirst(), toWrite.pollFirst()}
                : new Chunk[] {toWrite.pollFirst()};
        for (Chunk c : chunks) {
            move(c, Place.QUEUED, Place.WRITING);
        }
        if (!startWrite(chunks)) {
            return;
        }
        dataWriteInFlight = true;
        if (rnd.nextInt(markerEvery) == 0) {
            startWrite(new Chunk[0]); // an empty write queued behind it: carries no data, completes in order
        }
    }

    private boolean startWrite(Chunk[] chunks) {
        IoToken t = new IoToken(output.nextSeq(), chunks);
        writesInFlight++;
        output.started(t);
        try {
            if (chunks.length == 2) {
                channel.write(new ByteBuffer[] {chunks[0].buf, chunks[1].buf}, 0, 2, t);
            } else {
                channel.write(chunks.length == 1 ? chunks[0].buf : ByteBuffer.allocate(0), t);
            }
            t.submitted = true;
            return true;
        } catch (RuntimeException e) {
            output.startFailed(t, e);
            writesInFlight--;
            failed(e);
            return false;
        }
    }

    private void finishIfDone() {
        if (eof && !dead && readsInFlight == 0 && writesInFlight == 0 && toWrite.isEmpty()) {
            dead = true;
            server.disconnected(this);
            stats.serverGracefulCloses.increment();
            channel.close(); // the client half-closed and got everything back: it now sees end-of-stream
        }
    }

    private void failed(Throwable error) {
        stats.serverError(error);
        if (!dead) {
            dead = true;
            server.disconnected(this);
        }
        free.clear();
        toWrite.clear();
        channel.close();
    }

    private Chunk take() {
        Chunk c = free.pollFirst();
        if (c == null) {
            c = new Chunk(rnd.nextBoolean() ? ByteBuffer.allocateDirect(bufferSize) : ByteBuffer.allocate(bufferSize));
        }
        move(c, Place.FREE, Place.READING);
        c.buf.clear();
        return c;
    }

    private void recycle(Chunk c, Place from) {
        move(c, from, Place.FREE);
        if (!dead) {
            c.buf.clear();
            free.addLast(c);
        }
    }

    /** Moves a chunk, checking where it was (a chunk in two places would be a bug of this test). */
    private void move(Chunk c, Place from, Place to) {
        if (c.place != from) {
            stats.bufferAnomalies.increment();
            stats.detail("buffer anomaly", "connection " + id + ": TEST BUG? chunk moved from " + from + " to " + to
                    + " but was " + c.place);
        }
        c.place = to;
    }

    /** Checks that a completion carries the buffers its operation was started with. */
    private void checkBuffers(BufferOp op, IoToken t) {
        boolean same;
        if (t.chunks.length == 0) {
            same = op.getBuffer() != null && !op.getBuffer().hasRemaining(); // a marker
        } else if (t.chunks.length == 1) {
            same = op.getBuffer() == t.chunks[0].buf;
        } else {
            ByteBuffer[] bufs = op.getBuffers();
            same = bufs != null && op.getLength() == t.chunks.length;
            for (int i = 0; same && i < t.chunks.length; i++) {
                same = bufs[op.getOffset() + i] == t.chunks[i].buf;
            }
        }
        if (!same) {
            stats.bufferAnomalies.increment();
            stats.detail("buffer anomaly", "connection " + id + ": " + op.getKind() + " completion of operation #"
                    + t.seq + " carries other buffers than it was started with");
        }
    }

    // ---------------------------------------------------------------- faults

    /** Throws the pending handler failure, if any (marking the connection faulted first). */
    private void injectIfPending() {
        HandlerFault f = pendingFault;
        if (f == null) {
            return;
        }
        pendingFault = null;
        if (!server.faultsEnabled()) {
            return;
        }
        fault = "handler " + f;
        synchronized (this) {
            if (!dead) {
                dead = true;
                server.disconnected(this);
            }
            free.clear();
            toWrite.clear();
        }
        server.failedByHandler(this);
        switch (f) {
            case RUNTIME -> {
                stats.faultHandlerRuntime.increment();
                throw new IllegalStateException("soak: RuntimeException injected into a handler on purpose");
            }
            case ERROR -> {
                stats.faultHandlerError.increment();
                throw new InjectedError("soak: Error injected into a handler on purpose");
            }
            case STACK_OVERFLOW -> {
                stats.faultHandlerStackOverflow.increment();
                throw new StackOverflowError("soak: StackOverflowError injected into a handler on purpose");
            }
            default -> throw new AssertionError(f);
        }
    }

    /** Now and then holds the callback a little, to widen the window in which an overlap would be seen. */
    private static void maybeSpin() {
        if (ThreadLocalRandom.current().nextInt(64) == 0) {
            long end = System.nanoTime() + 20_000;
            while (System.nanoTime() < end) {
                Thread.onSpinWait();
            }
        }
    }

    /** The handler's state, for the report of a connection that got stuck. */
    synchronized String describe() {
        return this + " " + channel + ": open " + channel.isOpen() + ", dead " + dead + ", eof " + eof + ", bytes read " + bytesIn + ", written " + bytesOut
                + ", unwritten " + pendingBytes + " (queued " + toWrite.size() + ")"
                + ", reads in flight " + readsInFlight + " (outstanding " + input.describeOutstanding() + ")"
                + ", writes in flight " + writesInFlight + " (outstanding " + output.describeOutstanding() + ")"
                + ", buffer " + bufferSize + ", max reads " + maxReads + ", marker every " + markerEvery;
    }

    synchronized boolean isDead() {
        return dead;
    }

    @Override
    public String toString() {
        return "SoakConnection[" + id + " " + remote + (fault == null ? "" : ", fault " + fault) + "]";
    }
}
