package dev.proactor.bench.costs;

import java.util.Locale;

/** How the load generator drives a run. */
public enum Mode {
    /** Unpaced: every session sends its next block as soon as its echo is complete. */
    SATURATION,
    /** Paced at the row's fixed offered rate ({@code loadgen --rate}). */
    FIXED;

    /**
     * The name in files and tables.
     *
     * @return {@code saturation} or {@code fixed}
     */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
