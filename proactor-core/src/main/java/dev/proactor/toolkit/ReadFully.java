package dev.proactor.toolkit;

import dev.proactor.AsynchChannel;
import dev.proactor.OpRead;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * An exact-length read (the seed's {@code read_n}): completes when the buffer is full, or with a
 * {@link ShortReadException} (an {@link java.io.EOFException} carrying the count read) when the peer closes
 * first, or with the error of the underlying read. The counterpart for output is not needed:
 * {@link AsynchChannel#write(ByteBuffer)} already completes only when every byte is written.
 *
 * <p>One object per channel, reused for every exact read, so an exact read allocates nothing: it issues
 * ordinary reads with itself as the attachment, and the channel's handler passes each read completion to
 * {@link #continues(OpRead)} first:
 * <pre>{@code
 * public void onReadCompleted(OpRead op) throws Exception {
 *     if (ReadFully.continues(op)) return;   // a chunk of an exact read: handled, maybe finished
 *     ...                                    // an ordinary read of this handler
 * }
 * }</pre>
 *
 * <p><b>Threads and rules.</b> {@link #start} from any thread; the completion runs on the demultiplexor thread
 * that dispatched the last chunk. While an exact read is pending, start no other read on the channel (its chunks
 * would interleave with them). A read error ends the exact read with that error; what was read before it stays
 * in the buffer (its position) and in {@link #bytesRead()}.
 */
public final class ReadFully {

    /** Told when an exact read ends. */
    @FunctionalInterface
    public interface Handler {
        /**
         * The exact read ended: {@link ReadFully#isSuccess()} with the buffer full, or with
         * {@link ReadFully#error()}. Read the results inside this call; the object may be started again from it.
         * What it throws goes to the channel's handler failure path (logged, channel closed).
         */
        void onReadFullyCompleted(ReadFully read) throws Exception;
    }

    private final Handler handler;
    // State of the exact read in progress. Reads of one channel are dispatched one at a time, in order, and the
    // direction's lock orders them with the start, so plain fields are enough.
    private AsynchChannel channel;
    private ByteBuffer buffer;
    private Object attachment;
    private long wanted;
    private long bytesRead;
    private Throwable error;
    private volatile boolean pending;

    public ReadFully(Handler handler) {
        this.handler = Objects.requireNonNull(handler, "handler");
    }

    /**
     * Starts reading until {@code dst} has no space remaining.
     *
     * @throws IllegalStateException    if this object's previous exact read has not ended
     * @throws IllegalArgumentException if {@code dst} is read-only or has no space remaining
     * @throws RuntimeException         what {@link AsynchChannel#read(ByteBuffer, Object)} throws; the exact read
     *                                  has then not begun (not pending), and the object may be started again
     */
    public void start(AsynchChannel channel, ByteBuffer dst, Object attachment) {
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(dst, "dst");
        if (pending) {
            throw new IllegalStateException("an exact read of this object is still pending");
        }
        if (dst.isReadOnly() || !dst.hasRemaining()) {
            throw new IllegalArgumentException("exact read into a read-only or full buffer");
        }
        this.channel = channel;
        this.buffer = dst;
        this.attachment = attachment;
        this.wanted = dst.remaining();
        this.bytesRead = 0;
        this.error = null;
        this.pending = true;
        try {
            channel.read(dst, this);
        } catch (RuntimeException e) {
            pending = false; // no read started: the exact read has not begun, and the caller gets the exception
            throw e;
        }
    }

    /**
     * Feeds a read completion to the exact read that issued it. Call it first in
     * {@code onReadCompleted}.
     *
     * @return whether {@code op} belonged to an exact read (then it is handled and the caller returns)
     */
    public static boolean continues(OpRead op) throws Exception {
        if (op.getAttachment() instanceof ReadFully read) {
            read.onChunk(op);
            return true;
        }
        return false;
    }

    private void onChunk(OpRead op) throws Exception {
        if (!op.isSuccess()) {
            finish(op.getError());
        } else if (op.isEndOfStream()) {
            finish(new ShortReadException(bytesRead, wanted));
        } else {
            bytesRead += op.getBytesCompleted();
            if (buffer.hasRemaining()) {
                readMore();
            } else {
                finish(null);
            }
        }
    }

    /** Starts the next chunk; a read that cannot start ends the exact read with the reason. */
    private void readMore() throws Exception {
        try {
            channel.read(buffer, this);
        } catch (RuntimeException e) {
            finish(e);
        }
    }

    private void finish(Throwable failure) throws Exception {
        error = failure;
        pending = false;
        handler.onReadFullyCompleted(this);
    }

    /** The channel of the current or last exact read. */
    public AsynchChannel channel() {
        return channel;
    }

    /** The buffer being filled. */
    public ByteBuffer buffer() {
        return buffer;
    }

    /** The attachment given to {@link #start}. */
    public Object attachment() {
        return attachment;
    }

    /** Bytes read so far (all that were asked for on success). */
    public long bytesRead() {
        return bytesRead;
    }

    /** The error the exact read ended with ({@link ShortReadException} at end of stream), or null. */
    public Throwable error() {
        return error;
    }

    /** Whether the exact read ended with its buffer full. */
    public boolean isSuccess() {
        return !pending && error == null && channel != null;
    }

    /** Whether an exact read was started and has not ended. */
    public boolean isPending() {
        return pending;
    }
}
