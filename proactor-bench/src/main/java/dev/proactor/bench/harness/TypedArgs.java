package dev.proactor.bench.harness;

import java.util.List;
import picocli.CommandLine.Model.CommandSpec;

/** The command line a results file records, as the user typed it. */
public final class TypedArgs {

    private TypedArgs() {
    }

    /**
     * The arguments after the command's own name ({@code matrix}, {@code http-bench}, ...), so that a recorded
     * {@code java -jar proactor-bench.jar NAME ARGS} names the command once. Picocli's original arguments start
     * with the name when the command ran as a subcommand, and without it when it was parsed on its own.
     */
    public static String[] afterName(CommandSpec spec) {
        List<String> all = spec.commandLine().getParseResult().originalArgs();
        int name = all.indexOf(spec.name());
        return all.subList(name + 1, all.size()).toArray(String[]::new);
    }
}
