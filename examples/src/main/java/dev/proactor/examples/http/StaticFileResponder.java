package dev.proactor.examples.http;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.StandardOpenOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides what to answer to one parsed request and builds it in the connection's reusable
 * {@link HttpResponseHeader}: the status (405, what the {@link StaticFileResolver} says, 304 for a current copy,
 * 206 or 416 for a range), the head fields, and where the body comes from. It does no network I/O: the
 * {@link HttpConnection} writes what it returns.
 *
 * <p><b>Bodies.</b> Files up to {@link #INLINE_BODY_MAX} are read into the response buffer and sent with the
 * head in one write; a larger file is opened into the connection's {@link FileBody}, and the connection sends it
 * with {@code transmitFile} in chunks of {@link FileBody#sendChunk(long)} bytes, the head going with the first.
 *
 * <p><b>Threads.</b> Not thread-safe: one per connection, called while the connection holds its lock (from the
 * pool thread of a completion). The returned buffer is the header's and stays valid until the next call.
 *
 * <p><b>Errors.</b> Nothing is thrown for a request: a file that vanished since it was resolved is a 404, one
 * that cannot be read a 403, any other I/O error a 500 (logged at warn), all before any byte is sent; an opened
 * file that is not handed to the {@link FileBody} is closed here. (A head too large for the buffer would be a bug:
 * {@link java.nio.BufferOverflowException} from the header.)
 */
final class StaticFileResponder {

    private static final Logger LOG = LoggerFactory.getLogger(StaticFileResponder.class);

    /**
     * Files up to this size are read into the response buffer and leave with the head in one write; larger ones
     * go with {@code transmitFile}. Besides saving a system call, this keeps a small head and a small body from
     * travelling as two small segments, of which Nagle's algorithm holds the second until the client's delayed
     * ACK of the first (up to 40 ms per response on a kept-alive connection: the engine does not set
     * TCP_NODELAY). The read is one positional read, normally from the page cache.
     */
    static final int INLINE_BODY_MAX = 16 * 1024;

    private final StaticFileResolver resolver;
    private final HttpResponseHeader header;

    /**
     * @param inlineBodies whether responses may carry a file inline (the buffer then has room for
     *                     {@link #INLINE_BODY_MAX}); {@code false} for a connection that is only told an error
     */
    StaticFileResponder(StaticFileResolver resolver, boolean inlineBodies) {
        this.resolver = resolver;
        this.header = new HttpResponseHeader(HttpResponseHeader.HEAD_CAPACITY + (inlineBodies ? INLINE_BODY_MAX : 0));
    }

    /**
     * An error response after which the connection closes ({@code Connection: close}; parse error, timeout, 503),
     * flipped for writing.
     */
    ByteBuffer closingError(int status) {
        return header.error(status, System.currentTimeMillis(), false, 1, false);
    }

    /**
     * The response to {@code request}, flipped for writing: a whole response, or, when this opened {@code body},
     * the head to send in front of it.
     *
     * @param keepAlive whether the connection stays open after this response
     * @param logName   names the connection in log lines
     */
    ByteBuffer respond(HttpRequest request, boolean keepAlive, FileBody body, Object logName) {
        long now = System.currentTimeMillis();
        int minor = request.minorVersion();
        boolean head = request.method() == HttpRequest.Method.HEAD;
        if (request.method() == HttpRequest.Method.OTHER) {
            return header.error(405, now, keepAlive, minor, false);
        }
        StaticFileResolver.Resolution r = resolver.resolve(request.target());
        if (r.status() == 301) {
            return header.start(301, now).field("Location", r.location()).errorBody(301, keepAlive, minor, head);
        }
        if (r.status() != 200) {
            LOG.debug("{}: {} for {}: {}", logName, r.status(), request.target(), r.detail());
            return header.error(r.status(), now, keepAlive, minor, head);
        }
        if (notModified(request, r)) {
            return header.start(304, now).etag(r.size(), r.lastModifiedMillis())
                    .dateField("Last-Modified", r.lastModifiedMillis()).connection(keepAlive, minor).finish();
        }
        if (head) {
            return okHeader(200, r, r.size(), now, keepAlive, minor).finish();
        }
        return fileResponse(request, r, now, keepAlive, body, logName);
    }

    /** The response to a GET of the resolved file: opens it, then sends it inline or opens {@code body}. */
    private ByteBuffer fileResponse(HttpRequest request, StaticFileResolver.Resolution r, long now,
                                    boolean keepAlive, FileBody body, Object logName) {
        int minor = request.minorVersion();
        FileChannel f;
        long size;
        try {
            f = FileChannel.open(r.file(), StandardOpenOption.READ);
        } catch (NoSuchFileException e) {
            return header.error(404, now, keepAlive, minor, false); // removed since it was resolved
        } catch (AccessDeniedException e) {
            return header.error(403, now, keepAlive, minor, false);
        } catch (IOException e) {
            LOG.warn("{}: opening {} failed", logName, r.file(), e);
            return header.error(500, now, keepAlive, minor, false);
        }
        try {
            size = f.size(); // the length actually sent, even if the file changed since it was resolved
        } catch (IOException e) {
            LOG.warn("{}: size of {} failed", logName, r.file(), e);
            FileBody.closeQuietly(f, logName);
            return header.error(500, now, keepAlive, minor, false);
        }
        ByteRange range = requestedRange(request, r, size);
        if (range == ByteRange.UNSATISFIABLE) {
            FileBody.closeQuietly(f, logName);
            return header.start(416, now).field("Accept-Ranges", "bytes").contentRange(size)
                    .errorBody(416, keepAlive, minor, false);
        }
        long first = range == ByteRange.IGNORED ? 0 : range.first();
        long length = range == ByteRange.IGNORED ? size : range.length();
        HttpResponseHeader ok = okHeader(range == ByteRange.IGNORED ? 200 : 206, r, length, now, keepAlive, minor);
        if (range != ByteRange.IGNORED) {
            ok.contentRange(range.first(), range.last(), size);
        }
        if (length <= INLINE_BODY_MAX) {
            try {
                return ok.finish(f, first, length);
            } catch (IOException e) {
                // Includes a file truncated since size(): nothing is sent yet, so the client gets a clean 500.
                LOG.warn("{}: reading {} failed", logName, r.file(), e);
                return header.error(500, now, keepAlive, minor, false);
            } finally {
                FileBody.closeQuietly(f, logName);
            }
        }
        body.open(f, first, length);
        return ok.finish();
    }

    /**
     * Whether the client's copy is current: {@code If-None-Match} when present (it overrides
     * {@code If-Modified-Since}, RFC 9110 section 13.2.2), else {@code If-Modified-Since}.
     */
    private static boolean notModified(HttpRequest request, StaticFileResolver.Resolution r) {
        if (request.ifNoneMatch() != null) {
            return EntityTags.noneMatchHits(request.ifNoneMatch(), r.size(), r.lastModifiedMillis());
        }
        long ims = request.ifModifiedSinceSeconds();
        return ims != HttpRequest.NO_DATE && Math.floorDiv(r.lastModifiedMillis(), 1000L) <= ims;
    }

    /** The range of a GET to serve: {@link ByteRange#IGNORED} without {@code Range} or when If-Range fails. */
    private static ByteRange requestedRange(HttpRequest request, StaticFileResolver.Resolution r, long size) {
        if (request.range() == null
                || request.ifRange() != null
                && !EntityTags.ifRangeHolds(request.ifRange(), r.size(), r.lastModifiedMillis())) {
            return ByteRange.IGNORED;
        }
        return ByteRange.parse(request.range(), size);
    }

    /** The head of a 200 or 206 response, not yet finished. */
    private HttpResponseHeader okHeader(int status, StaticFileResolver.Resolution r, long length, long now,
                                        boolean keepAlive, int minor) {
        return header.start(status, now)
                .field("Content-Type", r.contentType())
                .field("Content-Length", length)
                .field("Accept-Ranges", "bytes")
                .etag(r.size(), r.lastModifiedMillis())
                .dateField("Last-Modified", r.lastModifiedMillis())
                .connection(keepAlive, minor);
    }
}
