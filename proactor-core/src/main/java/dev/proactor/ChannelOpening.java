package dev.proactor;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;

/**
 * Opens {@link AsynchChannel}s for the channel's static factories ({@link AsynchChannel#openServer},
 * {@link AsynchChannel#openSocket}, {@link AsynchChannel#openDatagram}, {@link AsynchChannel#openFile},
 * {@link AsynchChannel#wrapFile}) and for an accepted connection ({@link OpAccept#adopt}): checks the arguments,
 * has the demultiplexor's {@link ChannelRouting} open and register the channel with the processor that serves it,
 * and wraps the registration. The factories document the rules and exceptions.
 *
 * <p>Thread-safety: no state; any thread. Blocks as long as the engine takes to open the channel.
 */
final class ChannelOpening {

    private ChannelOpening() {
    }

    static AsynchChannel openServer(Demultiplexor demultiplexor, AsynchHandler handler, SocketAddress local,
                                    int backlog) throws IOException {
        Objects.requireNonNull(handler, "handler");
        Objects.requireNonNull(local, "local");
        return new AsynchChannel(demultiplexor, handler, demultiplexor.routing.openServer(local, backlog), true);
    }

    static AsynchChannel openSocket(Demultiplexor demultiplexor, AsynchHandler handler) throws IOException {
        Objects.requireNonNull(handler, "handler");
        return new AsynchChannel(demultiplexor, handler, demultiplexor.routing.openSocket(null), true);
    }

    static AsynchChannel openDatagram(Demultiplexor demultiplexor, AsynchHandler handler, SocketAddress local)
            throws IOException {
        Objects.requireNonNull(handler, "handler");
        Objects.requireNonNull(local, "local");
        return new AsynchChannel(demultiplexor, handler, demultiplexor.routing.openDatagram(local), true);
    }

    static AsynchChannel openFile(Demultiplexor demultiplexor, AsynchHandler handler, Path path,
                                  OpenOption... options) throws IOException {
        Objects.requireNonNull(handler, "handler");
        Objects.requireNonNull(path, "path");
        for (OpenOption o : Objects.requireNonNull(options, "options")) {
            Objects.requireNonNull(o, "options contains null");
        }
        return new AsynchChannel(demultiplexor, handler, demultiplexor.routing.openFile(path, options), true);
    }

    static AsynchChannel wrapFile(Demultiplexor demultiplexor, AsynchHandler handler, FileChannel file,
                                  OpenOption... options) throws IOException {
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
        return new AsynchChannel(demultiplexor, handler, demultiplexor.routing.wrapFile(file, set), true);
    }

    /** The connection {@code listener} accepted, as a new channel of the same demultiplexor and processor. */
    static AsynchChannel adoptAccepted(AsynchChannel listener, Object acceptedHandle, AsynchHandler newHandler)
            throws IOException {
        Objects.requireNonNull(newHandler, "handler");
        Demultiplexor demultiplexor = listener.demultiplexor;
        return new AsynchChannel(demultiplexor, newHandler,
                demultiplexor.routing.adopt(listener.processor, acceptedHandle), true);
    }
}
