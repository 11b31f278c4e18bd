package dev.proactor.bench.server.blocking;

import dev.proactor.bench.server.BusySpin;
import dev.proactor.bench.server.ConnectionErrors;
import dev.proactor.bench.server.EchoServer;
import dev.proactor.bench.server.NamedThreadFactory;
import dev.proactor.bench.server.ServerOptions;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;

/**
 * Blocking {@link ServerSocket}; every accepted connection gets its own thread from the
 * given factory (platform or virtual). {@code --threads} does not apply and is ignored.
 */
public final class ThreadPerConnectionServer implements EchoServer {
    private static final int BACKLOG = 4096;
    private static final int BUFFER_SIZE = 16 * 1024;
    private static final long PLATFORM_STACK_SIZE = 256 * 1024;

    private final String name;
    private final ServerOptions options;
    private final ThreadFactory connectionThreads;
    private final ConnectionErrors errors;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private ServerSocket listener;
    private Thread acceptor;
    private volatile boolean stopping;

    /**
     * Creates the server.
     *
     * @param name              server name for messages
     * @param options           server options
     * @param connectionThreads creates the thread serving each connection
     */
    public ThreadPerConnectionServer(String name, ServerOptions options, ThreadFactory connectionThreads) {
        this.name = name;
        this.options = options;
        this.connectionThreads = connectionThreads;
        this.errors = new ConnectionErrors(name);
    }

    /**
     * The platform-thread variant (256 KiB stacks so 10 000 connections fit).
     *
     * @param name    server name
     * @param options server options
     * @return the server
     */
    public static ThreadPerConnectionServer platform(String name, ServerOptions options) {
        return new ThreadPerConnectionServer(name, options, new NamedThreadFactory(name + "-conn", PLATFORM_STACK_SIZE));
    }

    @Override
    public InetSocketAddress start() throws IOException {
        listener = new ServerSocket();
        listener.setReuseAddress(true);
        listener.bind(options.bindAddress(), BACKLOG);
        acceptor = new Thread(this::acceptLoop, name + "-acceptor");
        acceptor.start();
        return (InetSocketAddress) listener.getLocalSocketAddress();
    }

    private void acceptLoop() {
        while (!stopping) {
            Socket socket;
            try {
                socket = listener.accept();
            } catch (IOException e) {
                if (stopping || listener.isClosed()) {
                    return;
                }
                System.err.println(name + ": accept failed: " + e);
                continue;
            }
            open.add(socket);
            connectionThreads.newThread(() -> serve(socket)).start();
        }
    }

    private void serve(Socket socket) {
        byte[] buf = new byte[BUFFER_SIZE];
        try (socket) {
            socket.setTcpNoDelay(true);
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            int n;
            while ((n = in.read(buf)) > 0) {
                BusySpin.spin(options.delayUs());
                out.write(buf, 0, n);
            }
        } catch (IOException e) {
            if (!stopping) {
                errors.record(e);
            }
        } finally {
            open.remove(socket);
        }
    }

    @Override
    public void stop() throws IOException, InterruptedException {
        stopping = true;
        if (listener != null) {
            listener.close();
        }
        if (acceptor != null) {
            acceptor.join();
        }
        for (Socket s : open) {
            s.close();
        }
        System.err.println(errors.summary());
    }
}
