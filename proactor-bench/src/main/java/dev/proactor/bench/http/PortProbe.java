package dev.proactor.bench.http;

import dev.proactor.bench.harness.LogTail;
import dev.proactor.bench.harness.ServerProcess;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.util.Optional;

/** Waits until a server that prints no ready line (nginx) accepts connections on its port. */
final class PortProbe {
    private static final long POLL_MILLIS = 50;
    private static final int CONNECT_TIMEOUT_MILLIS = 500;

    private PortProbe() {
    }

    /**
     * Polls the port until a connection succeeds, the process ends or the time is up.
     *
     * @param server         the process
     * @param log            its log, for the reason when it ends
     * @param host           address
     * @param port           port
     * @param timeoutSeconds how long to try
     * @return empty when ready, else why not
     * @throws InterruptedException when interrupted
     */
    static Optional<String> awaitListening(ServerProcess server, Path log, String host, int port, int timeoutSeconds)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeoutSeconds * 1_000_000_000L;
        IOException last = null;
        while (System.nanoTime() - deadline < 0) {
            if (!server.isAlive()) {
                return Optional.of(LogTail.reason(log) + " (exit code " + server.exitValue() + ")");
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(host, port), CONNECT_TIMEOUT_MILLIS);
                return Optional.empty();
            } catch (IOException e) {
                last = e;
            }
            Thread.sleep(POLL_MILLIS);
        }
        return Optional.of("port " + port + " not accepting within " + timeoutSeconds + " s (last: " + last
                + "; log: " + log + ")");
    }
}
