package dev.proactor.bench.server.reactor;

import dev.proactor.bench.server.ConnectionErrors;
import dev.proactor.bench.server.EchoServer;
import dev.proactor.bench.server.ServerOptions;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;

/**
 * A plain thread-pool reactor on {@link java.nio.channels.Selector}: T loops, one selector
 * each; loop 0 also accepts and spreads connections round-robin over all loops.
 */
public final class ThreadPoolReactorServer implements EchoServer {
    private static final int BACKLOG = 4096;

    private final ServerOptions options;
    private final ConnectionErrors errors = new ConnectionErrors("tp-reactor");
    private final ReactorLoop[] loops;
    private ServerSocketChannel listener;

    /**
     * Creates the server.
     *
     * @param options server options
     */
    public ThreadPoolReactorServer(ServerOptions options) {
        this.options = options;
        this.loops = new ReactorLoop[options.threads()];
    }

    @Override
    public InetSocketAddress start() throws IOException {
        for (int i = 0; i < loops.length; i++) {
            loops[i] = new ReactorLoop("tp-reactor-" + i, options.delayUs(), errors);
        }
        listener = ServerSocketChannel.open();
        listener.setOption(StandardSocketOptions.SO_REUSEADDR, true);
        listener.bind(options.bindAddress(), BACKLOG);
        listener.configureBlocking(false);
        loops[0].registerAcceptor(listener, new RoundRobin(loops));
        for (ReactorLoop loop : loops) {
            loop.start();
        }
        return (InetSocketAddress) listener.getLocalAddress();
    }

    @Override
    public void stop() throws IOException, InterruptedException {
        for (ReactorLoop loop : loops) {
            if (loop != null) {
                loop.shutdown();
            }
        }
        for (ReactorLoop loop : loops) {
            if (loop != null) {
                loop.awaitStopped();
            }
        }
        if (listener != null) {
            listener.close();
        }
        System.err.println(errors.summary());
    }

    /** Hands accepted connections to the loops in turn. */
    static final class RoundRobin {
        private final ReactorLoop[] loops;
        private int next;

        RoundRobin(ReactorLoop[] loops) {
            this.loops = loops;
        }

        ReactorLoop next() {
            ReactorLoop loop = loops[next];
            next = (next + 1) % loops.length;
            return loop;
        }
    }
}
