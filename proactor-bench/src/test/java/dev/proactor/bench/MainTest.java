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
    void matrixHelpListsItsOptionsAndServers() {
        Run r = run("matrix", "--help");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("--sessions") && r.out().contains("--disturbed"), r.out());
        assertTrue(r.out().contains("Servers: ") && r.out().contains("netty-epoll"), r.out());
    }

    @Test
    void costsHelpListsItsOptionsAndServers() {
        Run r = run("costs", "--help");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("--rounds") && r.out().contains("--rate") && r.out().contains("--window"),
                r.out());
        assertTrue(r.out().contains("Servers: ") && r.out().contains("netty-io_uring"), r.out());
    }

    @Test
    void httpBenchHelpListsItsOptionsAndServers() {
        Run r = run("http-bench", "--help");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("--sizes") && r.out().contains("--wrk-threads"), r.out());
        assertTrue(r.out().contains("Servers: ") && r.out().contains("nginx"), r.out());
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

    @ParameterizedTest
    @ValueSource(strings = {"matrix --bogus", "matrix --runs 0", "matrix --sessions 1,x", "matrix --quick --full",
        "matrix --window 0,1 --block 512", "matrix --servers no-such-server", "costs --bogus", "costs --rounds 0",
        "costs --rate fast", "costs --servers no-such-server", "http-bench --bogus",
        "http-bench --sizes 1k,1k", "http-bench --server-cpus a", "http-bench --connections 0"})
    void aWrongBenchmarkCommandLineIsOneErrorLineAndExitTwo(String line) {
        Run r = run(line.split(" "));
        assertEquals(2, r.status(), line + ": " + r.err());
        assertTrue(r.err().startsWith("error: "), r.err());
        String command = line.split(" ")[0];
        assertTrue(r.err().contains(command + " --help"), "the wrong command's help is named: " + r.err());
        assertEquals(3, r.err().lines().count(), "error, synopsis, hint: " + r.err());
    }
}
