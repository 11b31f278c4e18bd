package dev.proactor.bench.harness;

import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/** Parsing a picocli command's options without running it (the commands' {@code parse} methods, for tests). */
public final class ParseOnly {

    private ParseOnly() {
    }

    /**
     * Fills {@code command}'s options from {@code argv}.
     *
     * @throws UsageException on a malformed command line, with picocli's message
     */
    public static void fill(Object command, String[] argv) throws UsageException {
        try {
            new CommandLine(command).parseArgs(argv);
        } catch (ParameterException e) {
            throw new UsageException(e.getMessage());
        }
    }
}
