package dev.proactor.bench.server;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Accounts for connections that end with an I/O error.
 *
 * <p>The load generator resets its connections when a run ends, so "connection reset",
 * "broken pipe" and the closed-channel errors that follow them are expected and only counted; any other error is printed (the first few)
 * and counted. {@link #summary()} is printed when the server stops.
 */
public final class ConnectionErrors {
    private static final int MAX_PRINTED = 5;

    private final String server;
    private final AtomicLong resets = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();

    /**
     * Creates the accounting for one server.
     *
     * @param server server name used in messages
     */
    public ConnectionErrors(String server) {
        this.server = server;
    }

    /**
     * Records why a connection ended.
     *
     * @param cause the failure
     */
    public void record(Throwable cause) {
        if (isPeerReset(cause)) {
            resets.incrementAndGet();
            return;
        }
        long n = errors.incrementAndGet();
        if (n <= MAX_PRINTED) {
            System.err.println(server + ": connection error: " + cause);
            if (!(cause instanceof IOException)) {
                cause.printStackTrace();
            }
        }
    }

    /**
     * Whether a failure is the peer resetting or abandoning the connection.
     *
     * @param cause the failure
     * @return true for reset / broken pipe / already closed
     */
    public static boolean isPeerReset(Throwable cause) {
        if (cause instanceof ClosedChannelException) {
            return true;
        }
        if (!(cause instanceof IOException)) {
            return false;
        }
        String m = cause.getMessage();
        return m != null && (m.contains("reset") || m.contains("Broken pipe"));
    }

    /**
     * One line for the server's log.
     *
     * @return the counts
     */
    public String summary() {
        return server + ": connections ended by peer reset: " + resets.get() + ", by other I/O errors: " + errors.get();
    }
}
