package dev.proactor.bench.server.proactor;

import dev.proactor.LeaderMode;
import dev.proactor.ProactorConfig;
import dev.proactor.bench.server.EchoServer;
import dev.proactor.bench.server.ServerOptions;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Map;

/**
 * This project's echo service ({@code ProactorEchoService}) run in-process, for the JMH
 * benchmarks. Server names follow the matrix runner: {@code proactor-nio-epoll}, {@code proactor-nio-busy},
 * {@code proactor-nio-epoll-dedicated}, {@code proactor-epoll}, {@code proactor-epoll-busy}, {@code proactor-io_uring},
 * {@code proactor-linux-aio}.
 */
public final class ProactorEchoServer implements EchoServer {

    private static final Map<String, ProactorConfig> CONFIGS = Map.of(
            "proactor-nio-epoll", config("nio", "epoll", LeaderMode.SHARED),
            "proactor-nio-busy", config("nio", "busy-poll", LeaderMode.SHARED),
            "proactor-nio-epoll-dedicated", config("nio", "epoll", LeaderMode.DEDICATED),
            "proactor-epoll", config("epoll", "epoll", LeaderMode.SHARED),
            "proactor-epoll-busy", config("epoll", "busy-poll", LeaderMode.SHARED),
            "proactor-io_uring", config("io_uring", "io_uring", LeaderMode.SHARED),
            "proactor-linux-aio", config("linux-aio", "epoll", LeaderMode.SHARED));

    private final ProactorConfig config;
    private final ServerOptions options;
    private ProactorEchoService server;

    private ProactorEchoServer(ProactorConfig config, ServerOptions options) {
        this.config = config.toBuilder().threads(options.threads()).build();
        this.options = options;
    }

    private static ProactorConfig config(String engine, String wait, LeaderMode leader) {
        // strict: a benchmark must never measure the fallback engine under the native engine's name
        return ProactorConfig.builder().engine(engine).waitStrategy(wait).leader(leader).strict(true).build();
    }

    /** Whether {@code name} is one of this class's server names. */
    public static boolean handles(String name) {
        return CONFIGS.containsKey(name);
    }

    /**
     * The server called {@code name}.
     *
     * @throws IllegalArgumentException if the name is not a proactor server name
     */
    public static ProactorEchoServer create(String name, ServerOptions options) {
        ProactorConfig c = CONFIGS.get(name);
        if (c == null) {
            throw new IllegalArgumentException("unknown proactor server '" + name + "'; known: " + CONFIGS.keySet());
        }
        return new ProactorEchoServer(c, options);
    }

    @Override
    public InetSocketAddress start() throws IOException {
        server = new ProactorEchoService(config, new InetSocketAddress(options.host(), options.port()),
                16 * 1024, options.delayUs());
        return server.localAddress();
    }

    @Override
    public void stop() {
        if (server != null) {
            server.close();
        }
    }
}
