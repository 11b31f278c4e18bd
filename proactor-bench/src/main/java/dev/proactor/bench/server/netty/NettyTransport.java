package dev.proactor.bench.server.netty;

import dev.proactor.bench.server.PrerequisiteException;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;

/** The Netty 4.2 transports the baselines use. */
public enum NettyTransport {
    /** java.nio Selector. */
    NIO("netty-nio"),
    /** Native epoll (edge-triggered). */
    EPOLL("netty-epoll"),
    /** Native io_uring. */
    IO_URING("netty-io_uring");

    private final String serverName;

    NettyTransport(String serverName) {
        this.serverName = serverName;
    }

    /**
     * The baseline server name using this transport.
     *
     * @return e.g. {@code netty-epoll}
     */
    public String serverName() {
        return serverName;
    }

    /**
     * Looks a transport up by server name ({@code netty-nio}, {@code netty-epoll}, {@code netty-io_uring}).
     *
     * @param serverName the name
     * @return the transport
     * @throws IllegalArgumentException for an unknown name
     */
    public static NettyTransport byServerName(String serverName) {
        for (NettyTransport t : values()) {
            if (t.serverName.equals(serverName)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown Netty transport server '" + serverName + "'");
    }

    /**
     * Fails unless the transport's native library loads on this machine.
     *
     * @throws PrerequisiteException with Netty's reason when it does not
     */
    public void ensureAvailable() throws PrerequisiteException {
        switch (this) {
            case NIO:
                return;
            case EPOLL:
                if (!Epoll.isAvailable()) {
                    throw new PrerequisiteException("Netty native epoll transport not loadable", Epoll.unavailabilityCause());
                }
                return;
            case IO_URING:
                if (!IoUring.isAvailable()) {
                    throw new PrerequisiteException("Netty native io_uring transport not loadable", IoUring.unavailabilityCause());
                }
                return;
            default:
                throw new AssertionError(this);
        }
    }

    /**
     * The I/O handler factory for {@code MultiThreadIoEventLoopGroup}.
     *
     * @return the factory
     */
    public IoHandlerFactory ioHandlerFactory() {
        switch (this) {
            case NIO:
                return NioIoHandler.newFactory();
            case EPOLL:
                return EpollIoHandler.newFactory();
            case IO_URING:
                return IoUringIoHandler.newFactory();
            default:
                throw new AssertionError(this);
        }
    }

    /**
     * The listening channel class.
     *
     * @return the server channel class for this transport
     */
    public Class<? extends ServerChannel> serverChannelClass() {
        switch (this) {
            case NIO:
                return NioServerSocketChannel.class;
            case EPOLL:
                return EpollServerSocketChannel.class;
            case IO_URING:
                return IoUringServerSocketChannel.class;
            default:
                throw new AssertionError(this);
        }
    }
}
