package dev.proactor.examples;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Parses {@code --name value} command-line options against a fixed set of names, and value-less
 * {@code --flag}s against another; anything else is an {@link IllegalArgumentException} with a message meant
 * for the user.
 */
final class Args {

    private final Map<String, String> values = new HashMap<>();
    private final Set<String> flagsGiven = new HashSet<>();

    Args(String command, String[] args, int from, Set<String> allowed) {
        this(command, args, from, allowed, Set.of());
    }

    Args(String command, String[] args, int from, Set<String> allowed, Set<String> flags) {
        for (int i = from; i < args.length; i++) {
            String a = args[i];
            if (a.startsWith("--") && flags.contains(a.substring(2))) {
                flagsGiven.add(a.substring(2));
                continue;
            }
            if (!a.startsWith("--") || !allowed.contains(a.substring(2))) {
                Set<String> all = new TreeSet<>(allowed);
                all.addAll(flags);
                throw new IllegalArgumentException(command + ": unknown option '" + a + "'; allowed: --"
                        + String.join(" --", all));
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(command + ": option " + a + " needs a value");
            }
            values.put(a.substring(2), args[++i]);
        }
    }

    /** Whether the value-less flag {@code --name} was given. */
    boolean flag(String name) {
        return flagsGiven.contains(name);
    }

    /** Whether the option {@code --name} was given a value. */
    boolean has(String name) {
        return values.containsKey(name);
    }

    String string(String name, String dflt) {
        return values.getOrDefault(name, dflt);
    }

    String required(String name) {
        String v = values.get(name);
        if (v == null) {
            throw new IllegalArgumentException("missing option --" + name);
        }
        return v;
    }

    int integer(String name, int dflt, int min) {
        String v = values.get(name);
        if (v == null) {
            return dflt;
        }
        int n;
        try {
            n = Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + " must be an integer, was '" + v + "'", e);
        }
        if (n < min) {
            throw new IllegalArgumentException("--" + name + " must be at least " + min + ", was " + n);
        }
        return n;
    }
}
