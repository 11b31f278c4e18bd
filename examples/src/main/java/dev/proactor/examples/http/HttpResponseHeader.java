package dev.proactor.examples.http;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;

/**
 * Builds the bytes of a response head (and the short text body of an error response, or a small file body) in
 * one reusable direct buffer, without allocating: a connection owns one and reuses it for every response. Usage:
 * {@code start(200, now).field("Content-Type", t).field("Content-Length", n)...finish()}, then write the
 * returned buffer (or hand it to {@code transmitFile} as the header). The next {@code start} reuses the buffer,
 * so the previous response must have been written by then.
 *
 * <p>Every head carries {@code Date} and {@code Server}. Names and values must be ASCII without CR or LF (the
 * values here come from this server, never from a request). A head that does not fit the capacity is a
 * programming error ({@link java.nio.BufferOverflowException}).
 */
final class HttpResponseHeader {

    /** Capacity that fits every head and error body this server produces, with room to spare. */
    static final int HEAD_CAPACITY = 1024;

    private static final String SERVER = "proactor-examples";
    private static final String[] STATUS_LINES = new String[600];
    private static final byte[][] ERROR_BODIES = new byte[600][];

    static {
        int[] codes = {200, 206, 301, 304, 400, 403, 404, 405, 408, 411, 413, 414, 416, 431, 500, 503, 505};
        for (int code : codes) {
            STATUS_LINES[code] = "HTTP/1.1 " + code + " " + reason(code) + "\r\n";
            ERROR_BODIES[code] = (code + " " + reason(code) + "\n").getBytes(StandardCharsets.US_ASCII);
        }
    }

    private final ByteBuffer buffer;

    HttpResponseHeader(int capacity) {
        this.buffer = ByteBuffer.allocateDirect(capacity);
    }

    /** The reason phrase of a status this server sends (RFC 9110 §15). */
    static String reason(int status) {
        return switch (status) {
            case 200 -> "OK";
            case 206 -> "Partial Content";
            case 301 -> "Moved Permanently";
            case 304 -> "Not Modified";
            case 400 -> "Bad Request";
            case 403 -> "Forbidden";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            case 408 -> "Request Timeout";
            case 411 -> "Length Required";
            case 413 -> "Content Too Large";
            case 414 -> "URI Too Long";
            case 416 -> "Range Not Satisfiable";
            case 431 -> "Request Header Fields Too Large";
            case 500 -> "Internal Server Error";
            case 503 -> "Service Unavailable";
            case 505 -> "HTTP Version Not Supported";
            default -> throw new IllegalArgumentException("status not used by this server: " + status);
        };
    }

    /** Clears the buffer and writes the status line, {@code Date} (at {@code nowMillis}) and {@code Server}. */
    HttpResponseHeader start(int status, long nowMillis) {
        String line = status >= 0 && status < STATUS_LINES.length ? STATUS_LINES[status] : null;
        if (line == null) {
            throw new IllegalArgumentException("status not used by this server: " + status);
        }
        buffer.clear();
        ascii(line);
        ascii("Date: ");
        HttpDates.format(nowMillis, buffer);
        crlf();
        return field("Server", SERVER);
    }

    /** Adds {@code name: value}. */
    HttpResponseHeader field(String name, String value) {
        ascii(name);
        buffer.put((byte) ':').put((byte) ' ');
        ascii(value);
        crlf();
        return this;
    }

    /** Adds {@code name: value} for a non-negative number. */
    HttpResponseHeader field(String name, long value) {
        ascii(name);
        buffer.put((byte) ':').put((byte) ' ');
        number(value);
        crlf();
        return this;
    }

    /** Adds {@code name: <IMF-fixdate>}. */
    HttpResponseHeader dateField(String name, long epochMillis) {
        ascii(name);
        buffer.put((byte) ':').put((byte) ' ');
        HttpDates.formatOther(epochMillis, buffer);
        crlf();
        return this;
    }

    /** Adds {@code ETag: "<size hex>-<mtime hex>"}, the tag of {@link EntityTags#of}, without allocating. */
    HttpResponseHeader etag(long size, long lastModifiedMillis) {
        ascii("ETag: \"");
        hex(size);
        buffer.put((byte) '-');
        hex(lastModifiedMillis);
        buffer.put((byte) '"');
        crlf();
        return this;
    }

    /** Adds {@code Content-Range: bytes *}{@code /total}, for 416. */
    HttpResponseHeader contentRange(long total) {
        ascii("Content-Range: bytes */");
        number(total);
        crlf();
        return this;
    }

    /** Adds {@code Content-Range: bytes first-last/total}. */
    HttpResponseHeader contentRange(long first, long last, long total) {
        ascii("Content-Range: bytes ");
        number(first);
        buffer.put((byte) '-');
        number(last);
        buffer.put((byte) '/');
        number(total);
        crlf();
        return this;
    }

    /**
     * Adds the {@code Connection} field the request needs: {@code close} when the server will close, and
     * {@code keep-alive} for an HTTP/1.0 client that asked to keep it (1.1 keeps it by default, no field).
     */
    HttpResponseHeader connection(boolean keepAlive, int requestMinorVersion) {
        if (!keepAlive) {
            return field("Connection", "close");
        }
        return requestMinorVersion == 0 ? field("Connection", "keep-alive") : this;
    }

    /** Ends the head; returns the buffer flipped for writing. */
    ByteBuffer finish() {
        crlf();
        return buffer.flip();
    }

    /**
     * Ends the head and appends {@code length} bytes of {@code file} from position 0 (one or a few positional
     * reads), so that head and body leave in one write. Returns the buffer flipped for writing.
     *
     * @throws IllegalArgumentException if the body does not fit the remaining capacity
     * @throws EOFException             if the file is shorter than {@code length}
     * @throws IOException              if reading fails
     */
    ByteBuffer finish(FileChannel file, long length) throws IOException {
        return finish(file, 0, length);
    }

    /** Like {@link #finish(FileChannel, long)} for the {@code length} bytes of {@code file} from {@code from}. */
    ByteBuffer finish(FileChannel file, long from, long length) throws IOException {
        crlf();
        if (length > buffer.remaining()) {
            throw new IllegalArgumentException("body of " + length + " bytes does not fit; room for "
                    + buffer.remaining());
        }
        int end = buffer.position() + (int) length;
        buffer.limit(end);
        for (long at = 0; buffer.hasRemaining(); ) {
            int n = file.read(buffer, from + at);
            if (n < 0) {
                throw new EOFException("file ended after " + at + " of " + length + " bytes");
            }
            at += n;
        }
        return buffer.flip();
    }

    /**
     * A complete error response: head with a {@code text/plain} body naming the status ({@code Allow} for 405,
     * {@code Retry-After} for 503), the body left out for HEAD. Returns the buffer flipped for writing.
     */
    ByteBuffer error(int status, long nowMillis, boolean keepAlive, int requestMinorVersion, boolean head) {
        start(status, nowMillis);
        return errorBody(status, keepAlive, requestMinorVersion, head);
    }

    /**
     * The rest of an error response begun with {@link #start} and fields of the caller's (such as
     * {@code Location} or {@code Content-Range}): the text body and its fields. Returns the buffer flipped.
     */
    ByteBuffer errorBody(int status, boolean keepAlive, int requestMinorVersion, boolean head) {
        byte[] body = ERROR_BODIES[status];
        field("Content-Type", "text/plain; charset=utf-8");
        field("Content-Length", body.length);
        if (status == 405) {
            field("Allow", "GET, HEAD");
        } else if (status == 503) {
            field("Retry-After", 1);
        }
        connection(keepAlive, requestMinorVersion);
        crlf();
        if (!head) {
            buffer.put(body);
        }
        return buffer.flip();
    }

    private void ascii(String s) {
        for (int i = 0, n = s.length(); i < n; i++) {
            buffer.put((byte) s.charAt(i));
        }
    }

    private void hex(long v) {
        if (v < 0) {
            throw new IllegalArgumentException("negative header value " + v);
        }
        int digits = Math.max(1, (67 - Long.numberOfLeadingZeros(v)) / 4);
        for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) {
            buffer.put((byte) Character.forDigit((int) (v >>> shift) & 0xF, 16));
        }
    }

    private void number(long v) {
        if (v < 0) {
            throw new IllegalArgumentException("negative header value " + v);
        }
        int digits = 1;
        for (long t = v / 10; t > 0; t /= 10) {
            digits++;
        }
        if (buffer.remaining() < digits) {
            throw new java.nio.BufferOverflowException();
        }
        int end = buffer.position() + digits;
        for (int i = end - 1; i >= end - digits; i--) {
            buffer.put(i, (byte) ('0' + v % 10));
            v /= 10;
        }
        buffer.position(end);
    }

    private void crlf() {
        buffer.put((byte) '\r').put((byte) '\n');
    }
}
