package dev.proactor.bench.matrix;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Picks a free TCP port for the next server. */
final class Ports {
    private Ports() {
    }

    static int free(String host) throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(host))) {
            return s.getLocalPort();
        }
    }
}
