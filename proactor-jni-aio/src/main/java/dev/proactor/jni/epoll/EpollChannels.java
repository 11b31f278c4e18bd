package dev.proactor.jni.epoll;

import dev.proactor.jni.engine.AcceptedSocket;
import dev.proactor.jni.engine.EngineSockets;
import dev.proactor.spi.EngineChannel;
import java.io.IOException;
import java.net.SocketAddress;
import java.nio.channels.Channel;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How one {@link EpollEngine} gets its channels: opens, registers, adopts and discards their descriptors (the
 * engine's {@code Engine} methods of the same names delegate here); the native socket is made by
 * {@link EngineSockets}, and {@link EpollEngine#add} gives each descriptor its id and puts it in the epoll set.
 *
 * <p>Thread-safe and stateless but for the engine: any thread opens, registers, adopts and discards.
 */
final class EpollChannels {

    /** The engine's logger: a failed discard is logged under the same name as before these methods moved here. */
    private static final Logger LOG = LoggerFactory.getLogger(EpollEngine.class);

    private final EpollEngine engine;

    EpollChannels(EpollEngine engine) {
        this.engine = engine;
    }

    /**
     * Takes over a JDK {@link SocketChannel}, {@link ServerSocketChannel} or {@link DatagramChannel}: it is made
     * non-blocking and its socket is driven natively from now on, through the engine's own duplicate of its
     * descriptor (see {@link EpollChannel}). Closing the engine channel closes both. The user must not use the
     * JDK channel directly any more (nor connect, disconnect or bind it); closing it directly makes the
     * channel's operations fail with {@link ClosedChannelException} once the engine notices.
     */
    EngineChannel register(Channel channel) throws IOException {
        return EngineSockets.register(channel, "epoll", (fd, family) -> engine.add(fd,
                channel instanceof DatagramChannel ? EpollChannel.Kind.DATAGRAM
                        : channel instanceof ServerSocketChannel ? EpollChannel.Kind.SERVER
                        : EpollChannel.Kind.STREAM, family, channel));
    }

    /** A native non-blocking stream socket of the family of {@code remoteHint} (IPv4 when it is null or not IPv6). */
    EngineChannel openSocket(SocketAddress remoteHint) throws IOException {
        return EngineSockets.openSocket(remoteHint,
                (fd, family) -> engine.add(fd, EpollChannel.Kind.STREAM, family, null));
    }

    /** A native listening socket, as {@link EngineSockets#openServer} opens it. */
    EngineChannel openServer(SocketAddress local, int backlog) throws IOException {
        return EngineSockets.openServer(local, backlog,
                (fd, family) -> engine.add(fd, EpollChannel.Kind.SERVER, family, null));
    }

    /**
     * Opens a native non-blocking UDP socket of the address's family (IPv4 unless it is an IPv6 address, as for
     * servers) bound to {@code local} ({@code null}: the IPv4 wildcard, any port). Without {@code SO_REUSEADDR},
     * so an address in use fails with {@link java.net.BindException}.
     */
    EngineChannel openDatagram(SocketAddress local) throws IOException {
        return EngineSockets.openDatagram(local,
                (fd, family) -> engine.add(fd, EpollChannel.Kind.DATAGRAM, family, null));
    }

    /**
     * Makes a channel of an accepted connection. On failure the handle keeps the descriptor, and the core
     * closes it with {@link #discard(Object)}.
     */
    EngineChannel adopt(Object acceptedHandle) throws IOException {
        return ((AcceptedSocket) acceptedHandle).adopt(fd -> engine.add(fd, EpollChannel.Kind.STREAM, 0, null));
    }

    /** Closes an accepted connection nobody adopted; a failure of the close is logged. */
    void discard(Object acceptedHandle) {
        AcceptedSocket accepted = (AcceptedSocket) acceptedHandle;
        IOException failure = accepted.discard();
        if (failure != null) {
            LOG.warn("closing unadopted {} failed: {}", accepted, failure.getMessage());
        }
    }
}
