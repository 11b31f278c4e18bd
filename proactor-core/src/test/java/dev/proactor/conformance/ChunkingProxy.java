package dev.proactor.conformance;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketAddress;

/**
 * A one-connection TCP proxy for tests: forwards client-to-server bytes in pieces of at most {@code chunk} bytes
 * (so the server's reads see records split), server-to-client as they come. After {@link #cutNext()} the next
 * piece from the client is forwarded only half, and then both connections are closed: a peer vanishing in the
 * middle of a record. After {@link #gatherNext} the next bytes from the client are held until that many have
 * come and then forwarded in one write, so that they reach the server together whatever the client's pacing.
 */
final class ChunkingProxy implements AutoCloseable {

    private final ServerSocket listener;
    private final SocketAddress target;
    private final int chunk;
    private volatile boolean cut;
    private volatile int gather;
    private volatile boolean corruptGathered;
    private volatile Socket client;
    private volatile Socket server;

    ChunkingProxy(SocketAddress target, int chunk) throws IOException {
        this.target = target;
        this.chunk = chunk;
        listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        Thread t = new Thread(this::run, "chunking-proxy");
        t.setDaemon(true);
        t.start();
    }

    InetSocketAddress address() {
        return (InetSocketAddress) listener.getLocalSocketAddress();
    }

    void cutNext() {
        cut = true;
    }

    /**
     * The next {@code bytes} bytes from the client are forwarded in one write once they have all come, the last
     * of them flipped when {@code corruptLast}.
     */
    void gatherNext(int bytes, boolean corruptLast) {
        corruptGathered = corruptLast;
        gather = bytes;
    }

    private void run() {
        try {
            client = listener.accept();
            server = new Socket();
            server.connect(target);
            server.setTcpNoDelay(true);
            client.setTcpNoDelay(true);
            Thread back = new Thread(() -> pump(server, client, 64 * 1024, false), "chunking-proxy-back");
            back.setDaemon(true);
            back.start();
            pump(client, server, chunk, true);
        } catch (IOException e) {
            closeAll();
        }
    }

    private void pump(Socket from, Socket to, int size, boolean cuttable) {
        byte[] b = new byte[size];
        ByteArrayOutputStream held = new ByteArrayOutputStream();
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            for (int n = in.read(b); n >= 0; n = in.read(b)) {
                if (cuttable && cut) {
                    out.write(b, 0, Math.max(1, n / 2));
                    out.flush();
                    break;
                }
                if (cuttable && gather > 0) {
                    held.write(b, 0, n);
                    if (held.size() >= gather) {
                        byte[] gathered = held.toByteArray();
                        if (corruptGathered) {
                            gathered[gather - 1] ^= 0x5A;
                        }
                        gather = 0;
                        out.write(gathered);
                        out.flush();
                        held.reset();
                    }
                    continue;
                }
                out.write(b, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // a side closed: end both below
        }
        closeAll();
    }

    private void closeAll() {
        for (Socket s : new Socket[] {client, server}) {
            if (s != null) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // closing anyway
                }
            }
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        closeAll();
    }
}
