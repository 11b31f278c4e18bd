package dev.proactor.bench.file;

import java.util.Locale;

/** Whether rows read the file with {@code O_DIRECT}. */
public enum DirectMode {
    /** {@code O_DIRECT} where the row supports it, buffered (page cache) elsewhere; the row says which. */
    AUTO,
    /** {@code O_DIRECT} everywhere; a row that cannot is skipped with a note. */
    ON,
    /** Buffered everywhere (fio {@code --direct=0}). */
    OFF;

    /**
     * The mode of a command-line name.
     *
     * @throws IllegalArgumentException naming the allowed values
     */
    public static DirectMode byName(String name) {
        try {
            return valueOf(name.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--direct must be auto, on or off, was '" + name + "'", e);
        }
    }
}
