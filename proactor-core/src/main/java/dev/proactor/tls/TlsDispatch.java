package dev.proactor.tls;

import dev.proactor.Demultiplexor;
import dev.proactor.NotifyLevel;
import dev.proactor.OpTimer;
import java.util.ArrayDeque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The completions of one {@link TlsChannel} waiting for their callbacks: two FIFO queues (input: handshake and
 * reads; output: writes and shutdown), each drained by at most one thread at a time, so completions of a
 * direction run in order and never concurrently.
 *
 * <p>A queue is drained on the thread that queued into it when that is a demultiplexor thread running a
 * transport callback; otherwise (a user thread calling into the channel, a delegated-task thread) a reusable
 * timer is posted to the demultiplexor, whose callback drains, so handlers always run on demultiplexor threads.
 * Only if the demultiplexor is closed (the post is refused) does the calling thread drain, so nothing is lost.
 * A completion queued while its direction is being drained is picked up by the draining thread after the
 * running callback returns.
 */
final class TlsDispatch {

    private static final Logger LOG = LoggerFactory.getLogger(TlsChannel.class);

    private final TlsChannel channel;
    private final TlsHandler handler;
    private final Demultiplexor demultiplexor;
    /** Posted to run {@link #drainAll()} on a demultiplexor thread; created with the transport's handler. */
    private OpTimer kick;

    // Guarded by this. ArrayDeque grows to the most completions ever queued at once, then allocates nothing.
    private final ArrayDeque<TlsOp> input = new ArrayDeque<>();
    private final ArrayDeque<TlsOp> output = new ArrayDeque<>();
    private boolean inputBusy;
    private boolean outputBusy;

    TlsDispatch(TlsChannel channel, TlsHandler handler, Demultiplexor demultiplexor) {
        this.channel = channel;
        this.handler = handler;
        this.demultiplexor = demultiplexor;
    }

    void setKick(OpTimer kick) {
        this.kick = kick;
    }

    /** Queues a completed operation (any thread; the caller may hold the channel's lock). */
    synchronized void add(TlsOp op) {
        (op.kind.isInput() ? input : output).add(op);
    }

    /** Whether a queue holds completions nobody is draining. */
    private synchronized boolean idleWork() {
        return (!inputBusy && !input.isEmpty()) || (!outputBusy && !output.isEmpty());
    }

    /**
     * Gets queued completions dispatched: here when {@code inline} (the caller is a demultiplexor thread inside
     * a transport callback, holding no lock), otherwise through the demultiplexor.
     */
    void run(boolean inline) {
        if (!idleWork()) {
            return;
        }
        if (!inline) {
            try {
                demultiplexor.post(kick, NotifyLevel.STRONG);
                return;
            } catch (IllegalStateException closed) {
                // The demultiplexor is closed: no thread of it will run the callbacks, so this one does.
            }
        }
        drainAll();
    }

    /** Drains both directions on the calling thread (a direction another thread is draining is left to it). */
    void drainAll() {
        drain(true);
        drain(false);
    }

    private void drain(boolean in) {
        ArrayDeque<TlsOp> queue = in ? input : output;
        TlsOp op;
        synchronized (this) {
            if ((in ? inputBusy : outputBusy) || queue.isEmpty()) {
                return;
            }
            setBusy(in, true);
            op = queue.poll();
        }
        while (op != null) {
            try {
                call(op);
            } catch (Throwable t) {
                LOG.error("TLS handler {} failed in {} completion; closing {}", handler, op.kind, channel, t);
                channel.close();
            }
            channel.release(op);
            synchronized (this) {
                op = queue.poll();
                if (op == null) {
                    setBusy(in, false);
                }
            }
        }
    }

    private void setBusy(boolean in, boolean busy) {
        if (in) {
            inputBusy = busy;
        } else {
            outputBusy = busy;
        }
    }

    private void call(TlsOp op) throws Exception {
        switch (op.kind) {
            case HANDSHAKE -> handler.onHandshakeCompleted(op);
            case READ -> handler.onReadCompleted(op);
            case WRITE -> handler.onWriteCompleted(op);
            case SHUTDOWN -> handler.onShutdownCompleted(op);
        }
    }
}
