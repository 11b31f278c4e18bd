package dev.proactor.examples;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Entry point of {@code proactor-examples.jar}: {@code java [-Dproactor.…] -jar proactor-examples.jar COMMAND
 * [OPTIONS]}; {@code COMMAND --help} lists a command's options.
 *
 * <p>Exit status: 0 on success, 1 when the run failed (I/O error, nothing echoed), 2 on a user error. A user
 * error is a wrong command line or a wrong {@code proactor.*} system property (an unknown engine, a strict
 * configuration whose engine is unavailable, {@code proactor.fileEngine=none} for a file command); it prints
 * one {@code error: …} line, and for a wrong command line the synopsis of that command only.
 */
@Command(name = "proactor-examples.jar", mixinStandardHelpOptions = true, version = "proactor examples 0.1.0",
        description = "Runnable services on proactor. The engine and its settings come from -Dproactor.* "
                + "system properties (see docs/configuration.md).",
        subcommands = {EchoServerCommand.class, EchoClientCommand.class, HttpServerCommand.class,
                UdpEchoServerCommand.class, FileCopyCommand.class, JdkEchoServerCommand.class},
        synopsisSubcommandLabel = "COMMAND")
public final class Main implements Runnable {

    /** Exit status of a run that failed for a reason other than the user's input. */
    static final int FAILED = 1;
    /** Exit status of a user error. */
    static final int USAGE = 2;

    @Spec
    private CommandSpec spec;

    private Main() {
    }

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "missing COMMAND");
    }

    public static void main(String[] args) {
        Charset cs = Charset.defaultCharset();
        int status = execute(args, new PrintWriter(System.out, true, cs), new PrintWriter(System.err, true, cs));
        // Status 0 returns normally: a server stopped by a signal is already in JVM shutdown, where System.exit
        // would block, and the status is then the signal's.
        if (status != 0) {
            System.exit(status);
        }
    }

    /**
     * Parses and runs one command line, writing help to {@code out} and errors to {@code err}; returns the exit
     * status (a server command returns only once it was stopped).
     */
    static int execute(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new Main());
        cl.setOut(out);
        cl.setErr(err);
        cl.setUsageHelpAutoWidth(true);
        cl.setParameterExceptionHandler((e, argv) -> {
            err.println("error: " + e.getMessage());
            CommandLine wrong = e.getCommandLine();
            err.print(wrong.getHelp().synopsis(0));
            err.println("Run '" + wrong.getCommandSpec().qualifiedName() + " --help' for every option.");
            return USAGE;
        });
        cl.setExecutionExceptionHandler((e, wrong, parsed) -> {
            err.println("error: " + UserErrors.describe(e));
            return UserErrors.isUserError(e) ? USAGE : FAILED;
        });
        return cl.execute(args);
    }

    /** Turns {@link IOException} and configuration exceptions into one line for the user. */
    static final class UserErrors {

        private UserErrors() {
        }

        /**
         * Whether {@code e} comes from what the user asked for: a command-line value the parser could not
         * check, or a {@code proactor.*} property that names nothing usable.
         */
        static boolean isUserError(Throwable e) {
            return e instanceof IllegalArgumentException || e instanceof IllegalStateException
                    || e instanceof UnsupportedOperationException;
        }

        /** The message with its cause: for I/O errors what went wrong, not only the path. */
        static String describe(Throwable e) {
            return e instanceof IOException io ? IoErrors.describe(io) : String.valueOf(e.getMessage());
        }
    }
}
