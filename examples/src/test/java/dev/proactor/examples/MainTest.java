package dev.proactor.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The command line of {@code proactor-examples.jar}: help, user errors and their exit status. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MainTest {

    private static final String[] COMMANDS = {"echo-server", "echo-client", "http-server", "udp-echo-server",
        "jdk-echo-server",
        "file-copy"};

    @TempDir
    Path tmp;

    /** What one run printed and returned. */
    private record Run(int status, String out, String err) {
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(status, out.toString(), err.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"echo-server", "echo-client", "http-server", "udp-echo-server", "file-copy",
        "jdk-echo-server"})
    void everyCommandHasItsOwnHelp(String command) {
        Run r = run(command, "--help");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("Usage: proactor-examples.jar " + command), r.out());
        assertTrue(r.out().contains("--help"), r.out());
        assertEquals("", r.err());
    }

    @Test
    void topLevelHelpListsEveryCommand() {
        Run r = run("--help");
        assertEquals(0, r.status());
        for (String c : COMMANDS) {
            assertTrue(r.out().contains(c), c + " in " + r.out());
        }
    }

    @Test
    void helpNamesEveryOptionOfEchoClient() {
        String out = run("echo-client", "--help").out();
        for (String o : new String[] {"--host", "--port", "--udp", "--sessions", "--block", "--window", "--seconds",
            "--warmup", "--threads", "--retransmit-ms"}) {
            assertTrue(out.contains(o), o + " in " + out);
        }
    }

    @Test
    void noCommandIsAUsageError() {
        Run r = run();
        assertEquals(2, r.status());
        assertTrue(r.err().startsWith("error: missing COMMAND"), r.err());
    }

    @Test
    void anUnknownCommandIsOneErrorLine() {
        Run r = run("ecko-server");
        assertEquals(2, r.status());
        assertTrue(r.err().startsWith("error: "), r.err());
        assertTrue(r.err().contains("ecko-server"), r.err());
    }

    @Test
    void echoServerWithoutPortSaysSoAndShowsOnlyItsOwnUsage() {
        Run r = run("echo-server");
        assertEquals(2, r.status());
        String first = r.err().lines().findFirst().orElseThrow();
        assertTrue(first.startsWith("error: ") && first.contains("--port"), first);
        assertFalse(r.err().contains("port out of range"), r.err());
        assertTrue(r.err().contains("echo-server"), r.err());
        assertFalse(r.err().contains("http-server"), "usage of the wrong command only: " + r.err());
        assertFalse(r.err().contains("file-copy"), r.err());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "echo-server --port 70000", "echo-server --port -1", "echo-server --port x", "echo-server --port 0 --nope",
        "echo-server --port 0 --threads 0", "echo-server --port 0 --buffer 0",
        "echo-client --port 7 --sessions 0", "echo-client --port 7 --block 100 --window 50",
        "echo-client --port 7 --retransmit-ms 5", "echo-client --port 7 --udp --window 1024",
        "echo-client --port 7 --udp --block 4", "echo-client --port 7 --warmup -1",
        "udp-echo-server --port 65536", "http-server --port 0", "http-server --port 0 --root /nonexistent-dir",
        "file-copy", "file-copy onlysource", "file-copy a b --block 2147483647", "file-copy a b --depth 0",
    })
    void aWrongCommandLineIsOneErrorLineAndExitTwo(String line) {
        Run r = run(line.split(" "));
        assertEquals(2, r.status(), line + ": " + r.err());
        String first = r.err().lines().findFirst().orElseThrow();
        assertTrue(first.startsWith("error: "), first);
        assertFalse(r.err().contains("\tat "), "no stack trace: " + r.err());
        assertTrue(r.err().contains("--help"), "points to --help: " + r.err());
    }

    @Test
    void aWrongEnginePropertyIsOneErrorLineAndExitTwo() {
        String old = System.getProperty("proactor.engine");
        System.setProperty("proactor.engine", "no-such-engine");
        try {
            Run r = run("echo-server", "--port", "0");
            assertEquals(2, r.status(), r.err());
            assertTrue(r.err().startsWith("error: ") && r.err().contains("no-such-engine"), r.err());
            assertEquals(1, r.err().lines().count(), r.err());
        } finally {
            restore("proactor.engine", old);
        }
    }

    @Test
    void fileEngineNoneIsOneErrorLineAndExitTwo() throws Exception {
        Path source = Files.writeString(tmp.resolve("in.txt"), "hello");
        String old = System.getProperty("proactor.fileEngine");
        System.setProperty("proactor.fileEngine", "none");
        try {
            Run r = run("file-copy", source.toString(), tmp.resolve("out.txt").toString());
            assertEquals(2, r.status(), r.err());
            assertTrue(r.err().startsWith("error: ") && r.err().contains("fileEngine"), r.err());
            assertEquals(1, r.err().lines().count(), r.err());
        } finally {
            restore("proactor.fileEngine", old);
        }
    }

    @Test
    void aFailedCopySaysWhyAndExitsOne() throws Exception {
        Path source = Files.writeString(tmp.resolve("in.txt"), "hello");
        Run r = run("file-copy", source.toString(), tmp.resolve("no-dir").resolve("out").toString());
        assertEquals(1, r.status(), r.err());
        assertTrue(r.err().startsWith("error: ") && r.err().contains("no such file or directory"), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
    }

    @Test
    void aMissingSourceSaysWhy() {
        Run r = run("file-copy", tmp.resolve("missing").toString(), tmp.resolve("out").toString());
        assertEquals(1, r.status(), r.err());
        assertTrue(r.err().contains("missing: no such file or directory"), r.err());
    }

    @Test
    void copyingWorksFromTheCommandLine() throws Exception {
        Path source = Files.writeString(tmp.resolve("in.txt"), "hello, world");
        Path target = tmp.resolve("out.txt");
        Run r = run("file-copy", source.toString(), target.toString(), "--block", "5", "--depth", "2");
        assertEquals(0, r.status(), r.err());
        assertEquals("hello, world", Files.readString(target));
    }

    private static void restore(String name, String old) {
        if (old == null) {
            System.clearProperty(name);
        } else {
            System.setProperty(name, old);
        }
    }
}
