package dev.proactor.bench.server;

import dev.proactor.bench.server.blocking.ThreadPerConnectionServer;
import dev.proactor.bench.server.blocking.VirtualThreads;
import dev.proactor.bench.server.hsha.HalfSyncHalfAsyncServer;
import dev.proactor.bench.server.netty.NettyEchoServer;
import dev.proactor.bench.server.netty.NettyTlsEchoServer;
import dev.proactor.bench.server.netty.NettyTransport;
import dev.proactor.bench.server.nio2.Nio2EchoServer;
import dev.proactor.bench.server.proactor.ProactorTlsEchoServer;
import dev.proactor.bench.server.reactor.ThreadPoolReactorServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;

/** The Java baseline echo servers runnable from the bench jar, by command-line name. */
public enum BaselineServer {
    /** Netty 4.2 on the NIO transport. */
    NETTY_NIO("netty-nio", o -> NettyEchoServer.create(NettyTransport.NIO, o)),
    /** Netty 4.2 on the native epoll transport. */
    NETTY_EPOLL("netty-epoll", o -> NettyEchoServer.create(NettyTransport.EPOLL, o)),
    /** Netty 4.2 on the native io_uring transport. */
    NETTY_IO_URING("netty-io_uring", o -> NettyEchoServer.create(NettyTransport.IO_URING, o)),
    /** The JDK's AsynchronousSocketChannel (its built-in proactor). */
    JDK_NIO2("jdk-nio2", Nio2EchoServer::new),
    /** A plain thread-pool reactor: one Selector per thread. */
    TP_REACTOR("tp-reactor", ThreadPoolReactorServer::new),
    /** Half-sync/half-async: one selector thread reads, a worker pool writes. */
    HSHA("hsha", HalfSyncHalfAsyncServer::new),
    /** Blocking sockets, one platform thread per connection. */
    THREAD_PER_CONN("thread-per-conn", o -> ThreadPerConnectionServer.platform("thread-per-conn", o)),
    /** Blocking sockets, one virtual thread per connection (Java 21+). */
    THREAD_PER_CONN_VIRTUAL("thread-per-conn-virtual",
            o -> new ThreadPerConnectionServer("thread-per-conn-virtual", o, VirtualThreads.factory())),
    /** TLS echo over this project's TlsChannel, on the engine -Dproactor.engine selects (tls-echo benchmark). */
    PROACTOR_TLS(ProactorTlsEchoServer.NAME, o -> new ProactorTlsEchoServer(o, tlsCredentials())),
    /** TLS echo with Netty's SslHandler (JDK provider) on the NIO transport. */
    NETTY_TLS_NIO(NettyTlsEchoServer.serverName(NettyTransport.NIO),
            o -> NettyTlsEchoServer.create(NettyTransport.NIO, o, tlsCredentials())),
    /** TLS echo with Netty's SslHandler (JDK provider) on the native epoll transport. */
    NETTY_TLS_EPOLL(NettyTlsEchoServer.serverName(NettyTransport.EPOLL),
            o -> NettyTlsEchoServer.create(NettyTransport.EPOLL, o, tlsCredentials()));

    /** Creates a server for the given options. */
    @FunctionalInterface
    interface Factory {
        EchoServer create(ServerOptions options) throws PrerequisiteException;
    }

    private final String cliName;
    private final Factory factory;

    BaselineServer(String cliName, Factory factory) {
        this.cliName = cliName;
        this.factory = factory;
    }

    /**
     * The command-line name, also printed as {@code server=NAME} in the ready line.
     *
     * @return the name
     */
    public String cliName() {
        return cliName;
    }

    /**
     * Creates the server (not yet started).
     *
     * @param options command-line options
     * @return the server
     * @throws PrerequisiteException when the server cannot run here
     */
    public EchoServer create(ServerOptions options) throws PrerequisiteException {
        return factory.create(options);
    }

    /** The TLS servers' key and certificate ({@link TlsCredentials#forServerProcess()}). */
    private static TlsCredentials tlsCredentials() {
        try {
            return TlsCredentials.forServerProcess();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Looks a server up by command-line name.
     *
     * @param name the name
     * @return the server, or empty
     */
    public static Optional<BaselineServer> byName(String name) {
        for (BaselineServer s : values()) {
            if (s.cliName.equals(name)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }
}
