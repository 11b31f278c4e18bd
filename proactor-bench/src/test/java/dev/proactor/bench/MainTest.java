package dev.proactor.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The command line of {@code proactor-bench.jar}: help and user errors; nothing is run. */
class MainTest {

    private record Run(int status, String out, String err) {
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(status, out.toString(), err.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"netty-http", "jdk-nio2"})
    void serverCommandsHaveTheirOwnHelp(String command) {
        Run r = run(command, "--help");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("--port") && r.out().contains("--threads"), r.out());
    }

    @Test
    void matrixHelpListsItsOptions() {
        Run r = run("matrix", "--help");
        assertEquals(0, r.status(), r.err());
    }

    @Test
    void topLevelHelpListsTheCommands() {
        Run r = run("--help");
        assertEquals(0, r.status());
        assertTrue(r.out().contains("matrix") && r.out().contains("http-bench") && r.out().contains("netty-http"),
                r.out());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "nope", "jdk-nio2", "jdk-nio2 --port 70000", "jdk-nio2 --port 0 --threads 0",
        "jdk-nio2 --port x", "netty-http --port 0", "netty-http --port 0 --root /no/such/dir",
        "netty-http --port 0 --root . --transport carrier-pigeon"})
    void aWrongCommandLineIsOneErrorLineAndExitTwo(String line) {
        Run r = run(line.isEmpty() ? new String[0] : line.split(" "));
        assertEquals(2, r.status(), line + ": " + r.err());
        assertTrue(r.err().startsWith("error: "), r.err());
        assertTrue(r.err().contains("--help"), r.err());
        assertFalse(r.err().contains("http-bench") && !line.startsWith("http-bench"), "only the wrong command: "
                + r.err());
    }

    /** These two keep their own parsers, which print to the process's stderr: only the status is checked. */
    @ParameterizedTest
    @ValueSource(strings = {"matrix --bogus", "matrix --runs 0", "http-bench --bogus"})
    void aWrongBenchmarkCommandLineExitsTwo(String line) {
        assertEquals(2, run(line.split(" ")).status(), line);
    }
}
