package dev.proactor.internal;

import dev.proactor.AsynchHandler;
import dev.proactor.ProactorOpenOption;
import dev.proactor.internal.ChannelCore.Registration;
import java.io.IOException;
import java.net.SocketAddress;
import java.nio.channels.FileChannel;
import java.nio.channels.SelectableChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;

/**
 * Opens {@link ChannelCore}s for the channel's static factories ({@link ChannelCore#openServer},
 * {@link ChannelCore#openSocket}, {@link ChannelCore#openDatagram}, {@link ChannelCore#openFile},
 * {@link ChannelCore#wrapFile}) and for an accepted connection ({@link OpAccept#adopt}): checks the arguments,
 * has the demultiplexor's {@link ChannelRouting} open and register the channel with the processor that serves it,
 * and wraps the registration. The factories document the rules and exceptions.
 *
 * <p>Thread-safety: no state; any thread. Blocks as long as the engine takes to open the channel.
 */
public final class ChannelOpening {

    private ChannelOpening() {
    }

    public static Registration openServer(DemultiplexorCore demultiplexor, AsynchHandler handler,
                                          SocketAddress local, int backlog) throws IOException {
        Objects.requireNonNull(handler, "handler");
        Objects.requireNonNull(local, "local");
        return demultiplexor.routing.openServer(local, backlog);
    }

    public static Registration openSocket(DemultiplexorCore demultiplexor, AsynchHandler handler)
            throws IOException {
        Objects.requireNonNull(handler, "handler");
        return demultiplexor.routing.openSocket(null);
    }

    public static Registration openDatagram(DemultiplexorCore demultiplexor, AsynchHandler handler,
                                            SocketAddress local) throws IOException {
        Objects.requireNonNull(handler, "handler");
        Objects.requireNonNull(local, "local");
        return demultiplexor.routing.openDatagram(local);
    }

    public static Registration openFile(DemultiplexorCore demultiplexor, AsynchHandler handler, Path path,
                                        OpenOption... options) throws IOException {
        Objects.requireNonNull(handler, "handler");
        Objects.requireNonNull(path, "path");
        for (OpenOption o : Objects.requireNonNull(options, "options")) {
            Objects.requireNonNull(o, "options contains null");
        }
        return demultiplexor.routing.openFile(path, options);
    }

    public static Registration wrapFile(DemultiplexorCore demultiplexor, AsynchHandler handler,
                                        FileChannel file, OpenOption... options) throws IOException {
        Objects.requireNonNull(handler, "handler");
        Objects.requireNonNull(file, "file");
        java.util.Set<OpenOption> set = new java.util.HashSet<>();
        for (OpenOption o : Objects.requireNonNull(options, "options")) {
            Objects.requireNonNull(o, "options contains null");
            if (o != ProactorOpenOption.DIRECT && o != StandardOpenOption.READ && o != StandardOpenOption.WRITE) {
                throw new IllegalArgumentException("only READ, WRITE and ProactorOpenOption.DIRECT apply to an open"
                        + " FileChannel, not " + o);
            }
            set.add(o);
        }
        return demultiplexor.routing.wrapFile(file, set);
    }

    /** The connection {@code listener} accepted, as a new channel of the same demultiplexor and processor. */
    public static Registration adoptAccepted(ChannelCore listener, Object acceptedHandle, AsynchHandler newHandler)
            throws IOException {
        Objects.requireNonNull(newHandler, "handler");
        return listener.demultiplexor.routing.adopt(listener.processor, acceptedHandle);
    }

    /** A channel the caller made (the seed's constructor of {@code AsynchChannel}), registered with its engine. */
    public static Registration register(DemultiplexorCore demultiplexor, SelectableChannel channel)
            throws IOException {
        return demultiplexor.routing.register(channel);
    }
}
