package dev.proactor.examples.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Incremental parser of HTTP/1.x request heads (RFC 9112) for a server that serves no request bodies.
 *
 * <p><b>Contract.</b> {@link #parse} is given the connection's buffer with its position at the first byte of a
 * request head and its limit at the end of the bytes received so far. It returns
 * <ul>
 *   <li>{@link #NEED_MORE}: no complete head yet; the buffer is unchanged. Call again with the same head start
 *       once more bytes arrived (the buffer may have been compacted in between: everything is kept relative to
 *       the position). Bytes already examined are not examined again.</li>
 *   <li>{@link #COMPLETE}: the request was stored in the {@link HttpRequest} and the position advanced past its
 *       head, to the next pipelined request if any.</li>
 *   <li>an HTTP status &ge; 400: the request is malformed or unacceptable; {@link #errorDetail()} says why. The
 *       connection cannot be trusted to be in sync any more (body framing unknown): answer and close it.</li>
 * </ul>
 * Error statuses: 400 (syntax; bare CR; obsolete line folding; space before the colon; missing or repeated
 * {@code Host} in HTTP/1.1; invalid or conflicting {@code Content-Length}; {@code Transfer-Encoding} in
 * HTTP/1.0 or together with {@code Content-Length}), 411 ({@code Transfer-Encoding} without a length: this
 * server reads no bodies), 413 ({@code Content-Length} above zero), 414 (request line over its limit), 431 (head
 * or header count over its limit), 505 (an HTTP major version other than 1).
 *
 * <p>Leading empty lines before a request line are skipped (RFC 9112 §2.2); a bare LF is accepted as a line
 * end. A parser belongs to one connection and is not thread-safe. It allocates nothing except the target
 * string of a complete request.
 */
final class HttpRequestParser {

    /** Returned when the head is not complete yet. */
    static final int NEED_MORE = -1;
    /** Returned when a request head was parsed. */
    static final int COMPLETE = 0;

    private static final byte CR = '\r';
    private static final byte LF = '\n';
    private static final byte SP = ' ';
    private static final byte HT = '\t';

    /** tchar (RFC 9110 §5.6.2): the characters of a method or a field name. */
    private static final boolean[] TCHAR = new boolean[256];

    static {
        for (int c = '0'; c <= '9'; c++) {
            TCHAR[c] = true;
        }
        for (int c = 'a'; c <= 'z'; c++) {
            TCHAR[c] = true;
            TCHAR[c - 32] = true;
        }
        for (char c : "!#$%&'*+-.^_`|~".toCharArray()) {
            TCHAR[c] = true;
        }
    }

    private final int maxRequestLine;
    private final int maxHeadBytes;
    private final int maxHeaderCount;

    // Scan state, relative to the buffer position at the head's start (kept across NEED_MORE).
    private int scanned;
    private int lineStart;
    private int headStart;
    private int lines;

    private String errorDetail;

    /**
     * @param maxRequestLine most bytes in the request line (without its line end); longer gives 414
     * @param maxHeadBytes   most bytes of a whole head including leading empty lines and the final empty line;
     *                       the caller's buffer must hold at least this many bytes. Longer gives 431
     * @param maxHeaderCount most header fields; more gives 431
     */
    HttpRequestParser(int maxRequestLine, int maxHeadBytes, int maxHeaderCount) {
        if (maxRequestLine < 16 || maxHeadBytes < maxRequestLine + 2 || maxHeaderCount < 1) {
            throw new IllegalArgumentException("limits too small: request line " + maxRequestLine + ", head "
                    + maxHeadBytes + ", headers " + maxHeaderCount);
        }
        this.maxRequestLine = maxRequestLine;
        this.maxHeadBytes = maxHeadBytes;
        this.maxHeaderCount = maxHeaderCount;
    }

    /** The most bytes of a head: the buffer given to {@link #parse} must be at least this large. */
    int maxHeadBytes() {
        return maxHeadBytes;
    }

    /** Why the last call returned an error status (a constant text), or {@code null}. */
    String errorDetail() {
        return errorDetail;
    }

    /** Forgets a partially scanned head (for reuse after the caller discarded the buffer's content). */
    void reset() {
        scanned = 0;
        lineStart = 0;
        headStart = 0;
        lines = 0;
        errorDetail = null;
    }

    /** Parses the head starting at {@code buf.position()}; see the class comment for the contract. */
    int parse(ByteBuffer buf, HttpRequest request) {
        int base = buf.position();
        int available = buf.limit() - base;
        while (scanned < available) {
            byte b = buf.get(base + scanned++);
            if (b != LF) {
                continue;
            }
            int lineLength = scanned - 1 - lineStart;
            if (lineLength > 0 && buf.get(base + scanned - 2) == CR) {
                lineLength--;
            }
            if (lineLength == 0) {
                if (lines == 0) {
                    lineStart = scanned; // an empty line before the request line: skip it
                    continue;
                }
                if (scanned > maxHeadBytes) {
                    return error(431, "request head too large"); // only if the caller's buffer is larger
                }
                int end = base + scanned;
                int status = parseHead(buf, base + headStart, end, request);
                if (status == COMPLETE) {
                    buf.position(end);
                    reset();
                }
                return status;
            }
            if (lines == 0) {
                if (lineLength > maxRequestLine) {
                    return error(414, "request line too long");
                }
                headStart = lineStart;
            } else if (lines > maxHeaderCount) {
                return error(431, "too many header fields");
            }
            lines++;
            lineStart = scanned;
        }
        if (lines == 0 && scanned - lineStart > maxRequestLine) {
            return error(414, "request line too long");
        }
        if (available >= maxHeadBytes) {
            return error(431, "request head too large");
        }
        return NEED_MORE;
    }

    private int error(int status, String detail) {
        errorDetail = detail;
        return status;
    }

    /** Parses a complete head in {@code buf[start, end)}, which ends with an empty line. */
    private int parseHead(ByteBuffer buf, int start, int end, HttpRequest req) {
        req.clear();
        int eol = lineEnd(buf, start);
        int status = parseRequestLine(buf, start, contentEnd(buf, start, eol), req);
        if (status != COMPLETE) {
            return status;
        }
        int hostCount = 0;
        boolean close = false;
        boolean keepAliveToken = false;
        boolean transferEncoding = false;
        long contentLength = -1;
        for (int p = eol + 1; ; ) {
            int lf = lineEnd(buf, p);
            int lineEnd = contentEnd(buf, p, lf);
            if (lineEnd == p) {
                break; // the empty line ending the head
            }
            if (containsCr(buf, p, lineEnd)) {
                return error(400, "bare CR in a header line");
            }
            byte first = buf.get(p);
            if (first == SP || first == HT) {
                return error(400, "obsolete line folding");
            }
            int colon = p;
            while (colon < lineEnd && TCHAR[buf.get(colon) & 0xFF]) {
                colon++;
            }
            if (colon == p || colon == lineEnd || buf.get(colon) != ':') {
                return error(400, "malformed header field name");
            }
            int v = colon + 1;
            int ve = lineEnd;
            while (v < ve && isOws(buf.get(v))) {
                v++;
            }
            while (ve > v && isOws(buf.get(ve - 1))) {
                ve--;
            }
            for (int i = v; i < ve; i++) {
                int c = buf.get(i) & 0xFF;
                if (c < 0x20 && c != HT || c == 0x7F) {
                    return error(400, "control character in a header value");
                }
            }
            if (nameIs(buf, p, colon, "host")) {
                hostCount++;
            } else if (nameIs(buf, p, colon, "connection")) {
                close |= hasToken(buf, v, ve, "close");
                keepAliveToken |= hasToken(buf, v, ve, "keep-alive");
            } else if (nameIs(buf, p, colon, "content-length")) {
                long n = parseLength(buf, v, ve);
                if (n == -1 || (contentLength >= 0 && n != contentLength)) {
                    return error(400, "invalid Content-Length");
                }
                contentLength = n;
            } else if (nameIs(buf, p, colon, "transfer-encoding")) {
                transferEncoding = true;
            } else if (nameIs(buf, p, colon, "if-modified-since")) {
                req.ifModifiedSinceSeconds = HttpDates.parse(buf, v, ve);
            } else if (nameIs(buf, p, colon, "range")) {
                req.range = ascii(buf, v, ve); // allocates only for the requests that carry it
            } else if (nameIs(buf, p, colon, "if-range")) {
                req.ifRange = ascii(buf, v, ve);
            } else if (nameIs(buf, p, colon, "if-none-match")) {
                req.ifNoneMatch = req.ifNoneMatch == null ? ascii(buf, v, ve)
                        : req.ifNoneMatch + "," + ascii(buf, v, ve); // a list may span several fields
            }
            p = lf + 1;
        }
        if (req.minorVersion >= 1 ? hostCount != 1 : hostCount > 1) {
            return error(400, hostCount == 0 ? "missing Host" : "more than one Host");
        }
        if (transferEncoding) {
            if (req.minorVersion == 0 || contentLength >= 0) {
                // RFC 9112 §6.1/§6.3: ambiguous framing, a request-smuggling vector; the connection must close.
                return error(400, "Transfer-Encoding in HTTP/1.0 or with Content-Length");
            }
            return error(411, "request bodies are not supported; Transfer-Encoding given");
        }
        if (contentLength > 0) {
            return error(413, "request bodies are not supported");
        }
        req.keepAlive = !close && (req.minorVersion >= 1 || keepAliveToken);
        return COMPLETE;
    }

    private int parseRequestLine(ByteBuffer buf, int start, int end, HttpRequest req) {
        if (containsCr(buf, start, end)) {
            return error(400, "bare CR in the request line");
        }
        int p = start;
        while (p < end && TCHAR[buf.get(p) & 0xFF]) {
            p++;
        }
        if (p == start || p == end || buf.get(p) != SP) {
            return error(400, "malformed method");
        }
        int methodEnd = p++;
        int targetStart = p;
        while (p < end && isVisibleAscii(buf.get(p))) {
            p++;
        }
        if (p == targetStart || p == end || buf.get(p) != SP) {
            return error(400, "malformed request target");
        }
        int targetEnd = p++;
        if (end - p != 8 || !regionIs(buf, p, "HTTP/") || !isDigit(buf.get(p + 5)) || buf.get(p + 6) != '.'
                || !isDigit(buf.get(p + 7))) {
            return error(400, "malformed HTTP version");
        }
        if (buf.get(p + 5) != '1') {
            return error(505, "only HTTP/1.x is supported");
        }
        req.minorVersion = Math.min(1, buf.get(p + 7) - '0');
        if (regionEquals(buf, start, methodEnd, "GET")) {
            req.method = HttpRequest.Method.GET;
        } else if (regionEquals(buf, start, methodEnd, "HEAD")) {
            req.method = HttpRequest.Method.HEAD;
        } else {
            req.method = HttpRequest.Method.OTHER;
        }
        req.target = ascii(buf, targetStart, targetEnd);
        return COMPLETE;
    }

    /** Index of the LF ending the line that starts at {@code p} (the head is known to contain one). */
    private static int lineEnd(ByteBuffer buf, int p) {
        while (buf.get(p) != LF) {
            p++;
        }
        return p;
    }

    /** End of a line's content: before its CR LF or bare LF. */
    private static int contentEnd(ByteBuffer buf, int start, int lf) {
        return lf > start && buf.get(lf - 1) == CR ? lf - 1 : lf;
    }

    private static boolean containsCr(ByteBuffer buf, int from, int to) {
        for (int i = from; i < to; i++) {
            if (buf.get(i) == CR) {
                return true;
            }
        }
        return false;
    }

    /** 1*DIGIT as a non-negative number, or -1 if malformed; lengths beyond 18 digits are clamped (all 413). */
    private static long parseLength(ByteBuffer buf, int from, int to) {
        if (from == to) {
            return -1;
        }
        long n = 0;
        for (int i = from; i < to; i++) {
            byte b = buf.get(i);
            if (!isDigit(b)) {
                return -1;
            }
            n = i - from >= 18 ? Long.MAX_VALUE : n * 10 + (b - '0');
        }
        return n;
    }

    /** Whether the comma-separated list in {@code [from, to)} contains {@code token} (case-insensitive). */
    private static boolean hasToken(ByteBuffer buf, int from, int to, String token) {
        int p = from;
        while (p < to) {
            int e = p;
            while (e < to && buf.get(e) != ',') {
                e++;
            }
            int s = p;
            int t = e;
            while (s < t && isOws(buf.get(s))) {
                s++;
            }
            while (t > s && isOws(buf.get(t - 1))) {
                t--;
            }
            if (t - s == token.length() && regionEqualsIgnoreCase(buf, s, token)) {
                return true;
            }
            p = e + 1;
        }
        return false;
    }

    private static boolean nameIs(ByteBuffer buf, int from, int to, String lowerName) {
        return to - from == lowerName.length() && regionEqualsIgnoreCase(buf, from, lowerName);
    }

    private static boolean regionEqualsIgnoreCase(ByteBuffer buf, int from, String lower) {
        for (int i = 0; i < lower.length(); i++) {
            int c = buf.get(from + i);
            if (c >= 'A' && c <= 'Z') {
                c += 32;
            }
            if (c != lower.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static boolean regionEquals(ByteBuffer buf, int from, int to, String text) {
        return to - from == text.length() && regionIs(buf, from, text);
    }

    private static boolean regionIs(ByteBuffer buf, int from, String text) {
        for (int i = 0; i < text.length(); i++) {
            if (buf.get(from + i) != text.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static String ascii(ByteBuffer buf, int from, int to) {
        if (buf.hasArray()) {
            return new String(buf.array(), buf.arrayOffset() + from, to - from, StandardCharsets.US_ASCII);
        }
        byte[] bytes = new byte[to - from];
        buf.get(from, bytes);
        return new String(bytes, StandardCharsets.US_ASCII);
    }

    private static boolean isOws(byte b) {
        return b == SP || b == HT;
    }

    private static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }

    private static boolean isVisibleAscii(byte b) {
        return b > 0x20 && b < 0x7F;
    }
}
