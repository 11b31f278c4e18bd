package dev.proactor.examples;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * Range checks of typed options: picocli has converted the text already, this says which values make sense.
 * A violation is a {@link ParameterException}, so the user sees one {@code error: …} line and the synopsis of
 * the command that was wrong.
 */
final class Ranges {

    /** Largest port number. */
    static final int MAX_PORT = 65535;

    private Ranges() {
    }

    /** Returns {@code value} if it lies in {@code [min, max]}; otherwise throws naming the option. */
    static int check(CommandSpec spec, String option, int value, int min, int max) {
        if (value < min || value > max) {
            throw new ParameterException(spec.commandLine(),
                    option + " must be " + min + " .. " + max + ", was " + value);
        }
        return value;
    }

    /** Rejects an option that the chosen mode does not use. */
    static void unused(CommandSpec spec, Object value, String option, String why) {
        if (value != null) {
            throw new ParameterException(spec.commandLine(), option + " " + why);
        }
    }
}
