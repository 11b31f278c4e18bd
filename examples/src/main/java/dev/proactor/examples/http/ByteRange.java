package dev.proactor.examples.http;

/**
 * The one byte range a {@code Range: bytes=…} field asks of a representation of known length (RFC 9110
 * section 14.1.2): {@code first-last}, {@code first-} or the suffix {@code -length}.
 *
 * <p>This server serves a single range only. A field it does not understand (another unit, bad syntax, or
 * several ranges, which would need a multipart body) is ignored and the whole file is sent with 200, as the
 * RFC allows; a range that starts at or beyond the end is {@link #UNSATISFIABLE} (416).
 *
 * @param first first byte sent (inclusive)
 * @param last  last byte sent (inclusive)
 */
record ByteRange(long first, long last) {

    /** The field is to be ignored: send the whole representation. */
    static final ByteRange IGNORED = new ByteRange(-1, -1);
    /** No byte of the representation is in the range: 416 with {@code Content-Range: bytes *}{@code /length}. */
    static final ByteRange UNSATISFIABLE = new ByteRange(-2, -2);

    /** Bytes in the range. */
    long length() {
        return last - first + 1;
    }

    /** The range {@code field} selects of a representation of {@code length} bytes, or one of the markers. */
    static ByteRange parse(String field, long length) {
        if (field == null || !field.regionMatches(true, 0, "bytes=", 0, 6)) {
            return IGNORED;
        }
        String spec = field.substring(6).trim();
        int dash = spec.indexOf('-');
        if (dash < 0 || spec.indexOf(',') >= 0) {
            return IGNORED;
        }
        long first = digits(spec, 0, dash);
        long last = digits(spec, dash + 1, spec.length());
        if (dash == 0) { // suffix: the last N bytes
            if (last < 0) {
                return IGNORED;
            }
            if (last == 0 || length == 0) {
                return UNSATISFIABLE;
            }
            return new ByteRange(Math.max(0, length - last), length - 1);
        }
        if (first < 0 || (dash + 1 < spec.length() && last < 0) || (last >= 0 && last < first)) {
            return IGNORED;
        }
        if (first >= length) {
            return UNSATISFIABLE;
        }
        return new ByteRange(first, last < 0 ? length - 1 : Math.min(last, length - 1));
    }

    /** The non-negative decimal in {@code [from, to)}, or -1 if it is empty, not digits or too large. */
    private static long digits(String s, int from, int to) {
        if (from >= to || to - from > 18) {
            return -1;
        }
        long n = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            n = n * 10 + (c - '0');
        }
        return n;
    }
}
