package dev.proactor.examples.http;

/**
 * One parsed request head, filled by {@link HttpRequestParser}. A connection owns one instance and reuses it
 * for every request, so parsing allocates only the target string.
 */
final class HttpRequest {

    /** The methods this server tells apart; every other valid method token is {@link #OTHER}. */
    enum Method { GET, HEAD, OTHER }

    /** Marks an absent {@code If-Modified-Since} (or one that is not a valid date, which is ignored). */
    static final long NO_DATE = -1;

    Method method;
    String target;
    int minorVersion;
    boolean keepAlive;
    long ifModifiedSinceSeconds = NO_DATE;
    String range;
    String ifRange;
    String ifNoneMatch;

    /** Resets every field before a new head is parsed into this object. */
    void clear() {
        method = null;
        target = null;
        minorVersion = 0;
        keepAlive = false;
        ifModifiedSinceSeconds = NO_DATE;
        range = null;
        ifRange = null;
        ifNoneMatch = null;
    }

    Method method() {
        return method;
    }

    /** The request-target exactly as received (origin-form or absolute-form; visible ASCII only). */
    String target() {
        return target;
    }

    /** The minor version of HTTP/1.x: 0 or 1 (higher minors are treated as 1). */
    int minorVersion() {
        return minorVersion;
    }

    /**
     * Whether the connection stays open after the response: HTTP/1.1 unless {@code Connection: close},
     * HTTP/1.0 only with {@code Connection: keep-alive}.
     */
    boolean keepAlive() {
        return keepAlive;
    }

    /** The {@code If-Modified-Since} time in epoch seconds, or {@link #NO_DATE}. */
    long ifModifiedSinceSeconds() {
        return ifModifiedSinceSeconds;
    }

    /** The {@code Range} field as received, or null. */
    String range() {
        return range;
    }

    /** The {@code If-Range} field (an entity-tag or an HTTP date) as received, or null. */
    String ifRange() {
        return ifRange;
    }

    /** The {@code If-None-Match} field list as received (several fields joined by commas), or null. */
    String ifNoneMatch() {
        return ifNoneMatch;
    }

    @Override
    public String toString() {
        return method + " " + target + " HTTP/1." + minorVersion + (keepAlive ? " keep-alive" : " close");
    }
}
