package dev.proactor.conformance;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The kernel's view of this process's loopback TCP sockets ({@code /proc/net/tcp} and {@code tcp6}), for the report
 * of a connection that got stuck: whether unread data waits in a receive queue (the application does not read),
 * unsent data in a send queue, and which timer runs (4 = zero-window probe: the peer's window is closed).
 */
final class SoakTcpTable {

    private final Map<Long, String> sockets = new HashMap<>();

    private SoakTcpTable() {
    }

    /** A snapshot of both tables (empty where /proc is missing). */
    static SoakTcpTable read() {
        SoakTcpTable t = new SoakTcpTable();
        t.load(Path.of("/proc/net/tcp"));
        t.load(Path.of("/proc/net/tcp6"));
        return t;
    }

    private void load(Path table) {
        if (!Files.isReadable(table)) {
            return;
        }
        try (BufferedReader r = Files.newBufferedReader(table, StandardCharsets.US_ASCII)) {
            r.readLine(); // header
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                String[] f = line.trim().split("\\s+");
                if (f.length < 6) {
                    continue;
                }
                int local = port(f[1]);
                int remote = port(f[2]);
                String[] queues = f[4].split(":");
                String[] timer = f[5].split(":");
                sockets.put(key(local, remote), "state " + f[3] + ", send queue " + Long.parseLong(queues[0], 16)
                        + ", receive queue " + Long.parseLong(queues[1], 16) + ", timer " + timerName(timer[0]));
            }
        } catch (IOException | RuntimeException e) {
            // a report aid only
        }
    }

    private static int port(String address) {
        return Integer.parseInt(address.substring(address.indexOf(':') + 1), 16);
    }

    private static long key(int local, int remote) {
        return ((long) local << 16) | remote;
    }

    private static String timerName(String t) {
        return switch (t) {
            case "00" -> "none";
            case "01" -> "retransmit";
            case "02" -> "keepalive";
            case "03" -> "time-wait";
            case "04" -> "zero-window probe";
            default -> t;
        };
    }

    /** The kernel's state of the socket with these local and remote ports, or "not found". */
    String describe(int localPort, int remotePort) {
        String s = sockets.get(key(localPort, remotePort));
        return s == null ? "not found" : s;
    }
}
