package dev.proactor.bench.server.http;

import io.netty.handler.codec.DateFormatter;
import java.util.Date;

/**
 * The {@code Date} header value, formatted at most once per second and shared by every event
 * loop. Thread-safe: the cached pair is replaced atomically.
 */
final class HttpDateCache {
    private volatile Entry current = new Entry(-1, "");

    /**
     * The current date as an HTTP date.
     *
     * @return e.g. {@code Sun, 22 Nov 2026 08:00:00 GMT}
     */
    String now() {
        long second = System.currentTimeMillis() / 1000;
        Entry e = current;
        if (e.second != second) {
            e = new Entry(second, DateFormatter.format(new Date(second * 1000)));
            current = e;
        }
        return e.text;
    }

    /**
     * Formats a modification time.
     *
     * @param millis epoch milliseconds
     * @return the HTTP date
     */
    static String format(long millis) {
        return DateFormatter.format(new Date(millis));
    }

    private record Entry(long second, String text) {
    }
}
