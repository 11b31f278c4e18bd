package dev.proactor.examples.http;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The file body an {@link HttpConnection} is sending with {@code transmitFile}, chunk after chunk: the open file,
 * the region still to send, and when a chunk last completed (the progress its idle timeout measures). A connection
 * owns one and reuses it for every response whose body is too large to go inline
 * ({@link StaticFileResponder#INLINE_BODY_MAX}); {@link StaticFileResponder} opens it, the connection transmits
 * and closes it.
 *
 * <p><b>Chunk size.</b> Progress is only visible at chunk granularity: a transmit completes when its whole region
 * has gone into the socket, and the engines wait for the kernel to report the socket writable, which Linux does
 * only once a third of the send buffer is free. Both are therefore bounded from the idle timeout: the chunk is
 * what a reader at {@link #SLOW_READER_BYTES_PER_SECOND} takes in a quarter of the timeout (120 KiB for 30 s, at
 * least {@link #MIN_SEND_CHUNK}, at most {@link #MAX_SEND_CHUNK}), and each connection sets its
 * {@code SO_SNDBUF} to it (the kernel's autotuning would otherwise let the buffer grow to 4 MiB, and a slow reader
 * would have to drain over a MiB between two completions). Such a reader then completes a chunk about four
 * times per timeout; one reading less than about a chunk per timeout (4 KiB/s for 30 s) cannot be told from a
 * stalled one and is closed. The price: a bounded send buffer also bounds the bytes in flight, which caps a
 * single connection at about twice the chunk per round trip on a long path (some 5 MB/s at 50 ms for the
 * default timeout); a longer idle timeout raises both the cap and the slowest reader served.
 *
 * <p><b>Threads.</b> Not thread-safe: called by the connection's responder and callbacks while the connection
 * holds its lock. The file must stay open while a transmission of it is pending, so only the connection knows
 * when to {@link #close}.
 *
 * <p><b>Errors.</b> Closing the file never fails for the caller: an error is logged at debug and dropped (the
 * file is read-only, nothing can be lost). Errors of the transmission itself reach the connection's completion.
 */
final class FileBody {

    private static final Logger LOG = LoggerFactory.getLogger(FileBody.class);

    /** Fewest file bytes per transmit (short idle timeouts): below this, completions cost more than they tell. */
    static final long MIN_SEND_CHUNK = 16 * 1024;
    /** Most file bytes per transmit (long idle timeouts). */
    static final long MAX_SEND_CHUNK = 1L << 20;
    /**
     * A reader this slow, but steady, still shows progress {@link #PROGRESS_CHECKS} times per idle timeout: the
     * chunk (and the socket's send buffer) are sized for it from the idle timeout.
     */
    static final long SLOW_READER_BYTES_PER_SECOND = 16 * 1024;
    /** How often per idle timeout a reader at {@link #SLOW_READER_BYTES_PER_SECOND} completes a chunk. */
    static final int PROGRESS_CHECKS = 4;

    /**
     * File bytes per {@code transmitFile} for an idle timeout, also each connection's {@code SO_SNDBUF}: what a
     * reader at {@link #SLOW_READER_BYTES_PER_SECOND} takes in 1/{@link #PROGRESS_CHECKS} of the timeout, within
     * [{@link #MIN_SEND_CHUNK}, {@link #MAX_SEND_CHUNK}] (120 KiB for the default 30 s).
     */
    static long sendChunk(long idleTimeoutMillis) {
        long millis = Math.min(idleTimeoutMillis, TimeUnit.HOURS.toMillis(1)); // an hour is past the maximum
        long bytes = SLOW_READER_BYTES_PER_SECOND * millis / 1000 / PROGRESS_CHECKS;
        return Math.max(MIN_SEND_CHUNK, Math.min(MAX_SEND_CHUNK, bytes));
    }

    private final long sendChunk;
    private FileChannel file;
    private long position;
    private long end;
    /** When a chunk last completed (or the body began), in {@link System#nanoTime()} units. */
    private long lastProgress;

    /** @param sendChunk the most file bytes per transmit ({@link #sendChunk(long)} of the idle timeout) */
    FileBody(long sendChunk) {
        this.sendChunk = sendChunk;
    }

    /** Takes {@code file} to send {@code length} bytes of it from {@code first}; the body begins now. */
    void open(FileChannel file, long first, long length) {
        this.file = file;
        this.position = first;
        this.end = first + length;
        this.lastProgress = System.nanoTime();
    }

    /** Whether a body is being sent (opened and not yet closed). */
    boolean isOpen() {
        return file != null;
    }

    FileChannel file() {
        return file;
    }

    /** Where the next chunk starts in the file. */
    long position() {
        return position;
    }

    /** The length of the next chunk: the send chunk, or what is left if less. */
    long nextChunkLength() {
        return Math.min(sendChunk, end - position);
    }

    /**
     * A chunk of {@code count} file bytes went out; returns whether more is left to send (then the completion
     * counts as progress).
     */
    boolean chunkSent(long count) {
        position += count;
        if (position < end) {
            lastProgress = System.nanoTime();
            return true;
        }
        return false;
    }

    /** Time since the last completed chunk (or since the body began) at {@code now}. */
    long nanosSinceProgress(long now) {
        return now - lastProgress;
    }

    /** Closes the file if one is open; {@code logName} names the connection in a log line. Idempotent. */
    void close(Object logName) {
        if (file != null) {
            closeQuietly(file, logName);
            file = null;
        }
    }

    /** Closes {@code f}, logging a failure at debug; {@code logName} names the connection. */
    static void closeQuietly(FileChannel f, Object logName) {
        try {
            f.close();
        } catch (IOException e) {
            LOG.debug("{}: closing a file failed", logName, e); // read-only file: nothing can be lost
        }
    }
}
