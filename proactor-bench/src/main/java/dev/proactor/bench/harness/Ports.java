package dev.proactor.bench.harness;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Picks a free TCP port for the next server. */
public final class Ports {
    private Ports() {
    }

    /**
     * A port that is free right now (it may be taken again before the server binds it).
     *
     * @param host address to check on
     * @return the port
     * @throws IOException when no socket can be bound
     */
    public static int free(String host) throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(host))) {
            return s.getLocalPort();
        }
    }
}
