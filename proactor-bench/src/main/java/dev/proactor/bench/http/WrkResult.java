package dev.proactor.bench.http;

/**
 * What one wrk run reported.
 *
 * @param requestsPerS       {@code Requests/sec}
 * @param transferBytesPerS  {@code Transfer/sec} in bytes (wrk's MB are MiB; headers included)
 * @param p50Us              50th latency percentile, microseconds
 * @param p99Us              99th latency percentile, microseconds
 * @param maxUs              largest latency, microseconds
 * @param requests           completed requests
 * @param readBytes          bytes read in total
 * @param non2xx3xx          responses with a status other than 2xx or 3xx
 * @param connectErrors      socket errors: connect
 * @param readErrors         socket errors: read
 * @param writeErrors        socket errors: write
 * @param timeouts           socket errors: timeout
 */
public record WrkResult(double requestsPerS, double transferBytesPerS, double p50Us, double p99Us, double maxUs,
                        long requests, double readBytes, long non2xx3xx, long connectErrors, long readErrors,
                        long writeErrors, long timeouts) {

    /**
     * Socket errors of every kind.
     *
     * @return connect + read + write + timeout
     */
    public long socketErrors() {
        return connectErrors + readErrors + writeErrors + timeouts;
    }

    /**
     * Whether wrk saw any error.
     *
     * @return true when a response was not 2xx/3xx or a socket error occurred
     */
    public boolean hasErrors() {
        return non2xx3xx > 0 || socketErrors() > 0;
    }

    /**
     * The errors in words.
     *
     * @return e.g. {@code none} or {@code non-2xx/3xx 12, socket errors connect 0 read 3 write 0 timeout 0}
     */
    public String describeErrors() {
        if (!hasErrors()) {
            return "none";
        }
        StringBuilder sb = new StringBuilder();
        if (non2xx3xx > 0) {
            sb.append("non-2xx/3xx ").append(non2xx3xx);
        }
        if (socketErrors() > 0) {
            if (sb.length() > 0) {
                sb.append(", ");
            }
            sb.append("socket errors connect ").append(connectErrors).append(" read ").append(readErrors)
                    .append(" write ").append(writeErrors).append(" timeout ").append(timeouts);
        }
        return sb.toString();
    }

    /**
     * Bytes read per completed request (response head and body).
     *
     * @return read bytes / requests, or 0 without requests
     */
    public double bytesPerRequest() {
        return requests == 0 ? 0 : readBytes / requests;
    }
}
