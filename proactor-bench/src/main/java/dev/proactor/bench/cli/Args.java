package dev.proactor.bench.cli;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Minimal {@code --name value} / {@code --flag} command-line parser.
 *
 * <p>Every option must be declared up front, so a typo is reported instead of ignored.
 */
public final class Args {
    private final Map<String, String> values;
    private final Set<String> flags;

    private Args(Map<String, String> values, Set<String> flags) {
        this.values = values;
        this.flags = flags;
    }

    /**
     * Parses {@code argv}.
     *
     * @param argv          the arguments
     * @param valueOptions  options that take a value (without the leading {@code --})
     * @param flagOptions   options without a value
     * @return the parsed arguments
     * @throws UsageException on an unknown option, a missing value or a stray argument
     */
    public static Args parse(String[] argv, Set<String> valueOptions, Set<String> flagOptions)
            throws UsageException {
        Map<String, String> values = new HashMap<>();
        Set<String> flags = new HashSet<>();
        for (int i = 0; i < argv.length; i++) {
            String arg = argv[i];
            if (!arg.startsWith("--")) {
                throw new UsageException("unexpected argument '" + arg + "'");
            }
            String name = arg.substring(2);
            String inlineValue = null;
            int eq = name.indexOf('=');
            if (eq >= 0) {
                inlineValue = name.substring(eq + 1);
                name = name.substring(0, eq);
            }
            if (flagOptions.contains(name) && inlineValue == null) {
                flags.add(name);
            } else if (valueOptions.contains(name)) {
                String value = inlineValue;
                if (value == null) {
                    if (i + 1 >= argv.length) {
                        throw new UsageException("option --" + name + " needs a value");
                    }
                    value = argv[++i];
                }
                values.put(name, value);
            } else {
                throw new UsageException("unknown option --" + name);
            }
        }
        return new Args(values, flags);
    }

    /**
     * Whether a flag or value option was given.
     *
     * @param name option name without {@code --}
     * @return true when present
     */
    public boolean has(String name) {
        return flags.contains(name) || values.containsKey(name);
    }

    /**
     * A string option.
     *
     * @param name         option name
     * @param defaultValue value when absent (may be null)
     * @return the value
     */
    public String string(String name, String defaultValue) {
        return values.getOrDefault(name, defaultValue);
    }

    /**
     * An integer option.
     *
     * @param name         option name
     * @param defaultValue value when absent
     * @param min          smallest allowed value
     * @return the value
     * @throws UsageException when not an integer or below {@code min}
     */
    public int integer(String name, int defaultValue, int min) throws UsageException {
        String v = values.get(name);
        if (v == null) {
            return defaultValue;
        }
        return parseInt(name, v, min);
    }

    /**
     * A comma-separated list option (empty elements are rejected).
     *
     * @param name         option name
     * @param defaultValue list when absent
     * @return the elements, trimmed
     * @throws UsageException on an empty element
     */
    public List<String> list(String name, List<String> defaultValue) throws UsageException {
        String v = values.get(name);
        if (v == null) {
            return defaultValue;
        }
        List<String> out = new ArrayList<>();
        for (String part : v.split(",", -1)) {
            String p = part.trim();
            if (p.isEmpty()) {
                throw new UsageException("option --" + name + " has an empty list element: '" + v + "'");
            }
            out.add(p);
        }
        return Collections.unmodifiableList(out);
    }

    /**
     * A comma-separated list of integers.
     *
     * @param name         option name
     * @param defaultValue list when absent
     * @param min          smallest allowed element
     * @return the integers
     * @throws UsageException on a malformed element
     */
    public List<Integer> intList(String name, List<Integer> defaultValue, int min) throws UsageException {
        if (!values.containsKey(name)) {
            return defaultValue;
        }
        List<Integer> out = new ArrayList<>();
        for (String p : list(name, List.of())) {
            out.add(parseInt(name, p, min));
        }
        return Collections.unmodifiableList(out);
    }

    private static int parseInt(String name, String v, int min) throws UsageException {
        int n;
        try {
            n = Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new UsageException("option --" + name + " needs an integer, got '" + v + "'");
        }
        if (n < min) {
            throw new UsageException("option --" + name + " must be >= " + min + ", got " + n);
        }
        return n;
    }
}
