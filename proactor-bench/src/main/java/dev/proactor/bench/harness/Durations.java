package dev.proactor.bench.harness;

import java.util.Locale;

/** Durations as the progress lines and plans print them. */
public final class Durations {
    private Durations() {
    }

    /**
     * Formats a duration as {@code mm:ss} or {@code h:mm:ss}.
     *
     * @param seconds the duration
     * @return the text
     */
    public static String clock(double seconds) {
        long s = Math.round(seconds);
        if (s >= 3600) {
            return String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60);
        }
        return String.format(Locale.ROOT, "%02d:%02d", s / 60, s % 60);
    }
}
