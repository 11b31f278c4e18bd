package dev.proactor.bench.http;

import dev.proactor.bench.harness.UsageException;
import java.util.Locale;

/**
 * One file size of the benchmark: {@code 512}, {@code 1k}, {@code 64k}, {@code 1m} (k = 1024,
 * m = 1024 * 1024). The file is served as {@code /LABEL.bin}.
 *
 * @param label the size as written, lower case (names the file and the report rows)
 * @param bytes the size in bytes
 */
public record FileSize(String label, long bytes) {
    /** Largest accepted size (1 GiB): the files are created in a temporary directory. */
    public static final long MAX_BYTES = 1L << 30;

    /**
     * Parses a size.
     *
     * @param text e.g. {@code 64k}
     * @return the size
     * @throws UsageException when malformed, negative or above {@link #MAX_BYTES}
     */
    public static FileSize parse(String text) throws UsageException {
        String t = text.trim().toLowerCase(Locale.ROOT);
        long unit = 1;
        String digits = t;
        if (t.endsWith("k")) {
            unit = 1024;
            digits = t.substring(0, t.length() - 1);
        } else if (t.endsWith("m")) {
            unit = 1024 * 1024;
            digits = t.substring(0, t.length() - 1);
        }
        long n;
        try {
            n = Long.parseLong(digits);
        } catch (NumberFormatException e) {
            throw new UsageException("size '" + text + "' is not a number with an optional k or m suffix");
        }
        if (n < 0 || n > MAX_BYTES / unit) {
            throw new UsageException("size '" + text + "' must be between 0 and 1024m");
        }
        return new FileSize(t, n * unit);
    }

    /**
     * The request path of the file.
     *
     * @return {@code /LABEL.bin}
     */
    public String path() {
        return "/" + fileName();
    }

    /**
     * The file's name in the document root.
     *
     * @return {@code LABEL.bin}
     */
    public String fileName() {
        return label + ".bin";
    }
}
