package dev.proactor.bench.harness;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * The checks and defaults the benchmark command lines share: lower bounds with the option's name in the message,
 * the JVM options of the Java servers, this JVM's {@code java}, a timestamped default output directory.
 */
public final class OptionChecks {
    /** Default JVM options of the Java servers. */
    public static final String DEFAULT_JVM_OPTS = "-Xms1g -Xmx1g";

    private OptionChecks() {
    }

    /**
     * Checks a lower bound.
     *
     * @param option the option's name, for the message
     * @param value  the value given
     * @param min    the smallest allowed value
     * @return {@code value}
     * @throws UsageException when {@code value < min}
     */
    public static int atLeast(String option, int value, int min) throws UsageException {
        if (value < min) {
            throw new UsageException(option + " must be >= " + min + ", got " + value);
        }
        return value;
    }

    /**
     * Checks a range.
     *
     * @param option the option's name, for the message
     * @param value  the value given
     * @param min    the smallest allowed value
     * @param max    the largest allowed value
     * @return {@code value}
     * @throws UsageException when {@code value} is outside {@code min..max}
     */
    public static int inRange(String option, int value, int min, int max) throws UsageException {
        if (value < min || value > max) {
            throw new UsageException(option + " must be in " + min + " .. " + max + ", got " + value);
        }
        return value;
    }

    /**
     * Checks a lower bound on every value of a list.
     *
     * @param option the option's name, for the message
     * @param values the values given
     * @param min    the smallest allowed value
     * @return {@code values}
     * @throws UsageException when one value is below {@code min}
     */
    public static List<Integer> atLeast(String option, List<Integer> values, int min) throws UsageException {
        for (int v : values) {
            atLeast(option, v, min);
        }
        return values;
    }

    /**
     * Splits a JVM option string at blanks.
     *
     * @param text the options as typed
     * @return the options, no empty ones
     */
    public static List<String> splitOptions(String text) {
        List<String> parts = new ArrayList<>();
        for (String part : text.trim().split("\\s+")) {
            if (!part.isEmpty()) {
                parts.add(part);
            }
        }
        return parts;
    }

    /**
     * The {@code java} to start the Java servers with.
     *
     * @param given the {@code --java} option, or null
     * @return {@code given}, or this JVM's {@code bin/java}
     */
    public static String javaOrThis(String given) {
        return given != null ? given : Paths.get(System.getProperty("java.home"), "bin", "java").toString();
    }

    /**
     * The output directory: the one given, or {@code bench-out/PREFIX-yyyyMMdd-HHmmss} under the repository root.
     *
     * @param given  the {@code --out} option, or null
     * @param layout the repository layout
     * @param prefix the command's prefix, e.g. {@code matrix}
     * @return the directory, absolute
     */
    public static Path outputOrStamped(Path given, RepoLayout layout, String prefix) {
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        Path output = given != null ? given : layout.root().resolve("bench-out").resolve(prefix + "-" + stamp);
        return output.toAbsolutePath();
    }
}
