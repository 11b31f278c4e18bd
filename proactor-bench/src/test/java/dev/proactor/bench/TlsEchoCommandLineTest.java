package dev.proactor.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The {@code tls-echo} command line and the TLS server commands: help and user errors; nothing is run. */
class TlsEchoCommandLineTest {

    private static String[] run(int expectedStatus, String line) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = Main.execute(line.split(" "), new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(expectedStatus, status, line + ": " + err);
        return new String[] {out.toString(), err.toString()};
    }

    @Test
    void helpListsTheOptions() {
        String out = run(0, "tls-echo --help")[0];
        for (String o : new String[] {"--sessions", "--block", "--window", "--modes", "--seconds", "--warmup",
            "--client-warmup", "--server-warmup", "--runs", "--transports", "--out", "--no-pin"}) {
            assertTrue(out.contains(o), o + " missing in: " + out);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"proactor-tls", "netty-tls-nio", "netty-tls-epoll"})
    void theTlsServersAreCommands(String server) {
        assertTrue(run(0, server + " --help")[0].contains("--port"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"tls-echo --sessions 0", "tls-echo --block 0", "tls-echo --block 2000000",
        "tls-echo --window 0", "tls-echo --seconds 0", "tls-echo --warmup -1", "tls-echo --client-warmup 601",
        "tls-echo --server-warmup 601", "tls-echo --runs 0",
        "tls-echo --modes window,burst", "tls-echo --transports nio,io_uring", "tls-echo --sessions x",
        "tls-echo --client-threads 0", "tls-echo --nope"})
    void aWrongOptionIsOneErrorLineAndExitTwo(String line) {
        String err = run(2, line)[1];
        assertTrue(err.startsWith("error: "), err);
        assertTrue(err.contains("tls-echo --help"), err);
    }

    @Test
    void theErrorNamesTheOptionAndItsRange() {
        String err = run(2, "tls-echo --sessions 0")[1];
        assertTrue(err.contains("--sessions must be 1 .. 10000, was 0"), err);
        err = run(2, "tls-echo --modes burst")[1];
        assertTrue(err.contains("window or ping-pong") && err.contains("burst"), err);
    }
}
