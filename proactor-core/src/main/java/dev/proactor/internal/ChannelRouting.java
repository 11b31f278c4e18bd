package dev.proactor.internal;

import dev.proactor.ProactorConfig;
import dev.proactor.spi.EngineChannel;
import dev.proactor.spi.OpKind;
import java.io.IOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.nio.channels.FileChannel;
import java.nio.channels.NonReadableChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * Routes each channel of a {@link DemultiplexorCore} to the processor that serves its kind, and opens or registers it
 * with that processor's engine (seed §7.3): the first processor whose engine supports the channel's operations
 * ({@link OpKind#READ} for stream sockets, {@link OpKind#RECEIVE} for datagrams, {@link OpKind#READ_FILE} for
 * files). The first file routed to a dedicated secondary processor starts its leader thread. An accepted
 * connection stays with its listener's processor. {@link ChannelOpening} checks the arguments and wraps the
 * {@link ChannelCore.Registration} made here.
 *
 * <p>Thread-safety: any thread, also from inside a callback. The processors are fixed at construction; the
 * demultiplexor's open state is its own: each method checks it before the engine is asked (a volatile read, so a
 * close may still come right after; {@link DemultiplexorCore#track} then closes the new channel), and the file
 * processor's leader starts under the demultiplexor's life-cycle lock ({@link DemultiplexorCore#whileOpen}), so a
 * close either comes later and stops it or came first and nothing starts. Blocks as long as the engine takes to
 * open or register the channel.
 */
final class ChannelRouting {

    private final DemultiplexorCore demultiplexor;
    /** The demultiplexor's processors, primary first; never modified. */
    private final Processor[] processors;
    private final String fileLeaderName;

    /** Routes among {@code processors} (primary first), checking that {@code demultiplexor} is open. */
    ChannelRouting(DemultiplexorCore demultiplexor, Processor[] processors, String fileLeaderName) {
        this.demultiplexor = demultiplexor;
        this.processors = processors;
        this.fileLeaderName = fileLeaderName;
    }

    ChannelCore.Registration register(SelectableChannel channel) throws IOException {
        demultiplexor.checkOpen();
        if (channel instanceof DatagramChannel) {
            Processor p = processorFor(OpKind.RECEIVE);
            if (p == null) {
                throw new IllegalArgumentException("no engine of " + demultiplexor + " runs datagram channels");
            }
            return new ChannelCore.Registration(p, p.engine().register(channel), ChannelType.DATAGRAM);
        }
        Processor p = streamProcessor();
        ChannelType type = channel instanceof ServerSocketChannel ? ChannelType.SERVER : ChannelType.SOCKET;
        return new ChannelCore.Registration(p, p.engine().register(channel), type);
    }

    ChannelCore.Registration openServer(SocketAddress local, int backlog) throws IOException {
        demultiplexor.checkOpen();
        Processor p = streamProcessor();
        return new ChannelCore.Registration(p, p.engine().openServer(local, backlog), ChannelType.SERVER);
    }

    ChannelCore.Registration openSocket(SocketAddress remoteHint) throws IOException {
        demultiplexor.checkOpen();
        Processor p = streamProcessor();
        return new ChannelCore.Registration(p, p.engine().openSocket(remoteHint), ChannelType.SOCKET);
    }

    ChannelCore.Registration openDatagram(SocketAddress local) throws IOException {
        demultiplexor.checkOpen();
        Processor p = processorFor(OpKind.RECEIVE);
        if (p == null || !p.supports(OpKind.SEND)) {
            throw new UnsupportedOperationException("no engine of " + demultiplexor + " runs datagram channels");
        }
        return new ChannelCore.Registration(p, p.engine().openDatagram(local), ChannelType.DATAGRAM);
    }

    ChannelCore.Registration openFile(Path path, OpenOption[] options) throws IOException {
        Processor p = fileProcessor();
        Set<OpenOption> set = new HashSet<>(Arrays.asList(options));
        return new ChannelCore.Registration(p, p.engine().openFile(path, set), ChannelType.FILE);
    }

    /**
     * Registers a file the caller opened. When {@code options} says neither {@link StandardOpenOption#READ} nor
     * {@link StandardOpenOption#WRITE}, finds out whether it may be read and written (a zero-byte positional read
     * and write, which the JDK refuses with {@link NonReadableChannelException} and
     * {@link NonWritableChannelException} before any system call); then hands that and
     * {@link ProactorOpenOption#DIRECT}, if asked, to the file engine.
     */
    ChannelCore.Registration wrapFile(FileChannel file, Set<OpenOption> options) throws IOException {
        Processor p = fileProcessor();
        if (!file.isOpen()) {
            throw new ClosedChannelException();
        }
        Set<OpenOption> set = new HashSet<>(options);
        if (!set.contains(StandardOpenOption.READ) && !set.contains(StandardOpenOption.WRITE)) {
            if (allows(() -> file.read(ByteBuffer.allocate(0), 0))) {
                set.add(StandardOpenOption.READ);
            }
            if (allows(() -> file.write(ByteBuffer.allocate(0), 0))) {
                set.add(StandardOpenOption.WRITE);
            }
        }
        return new ChannelCore.Registration(p, p.engine().wrapFile(file, set), ChannelType.FILE);
    }

    /** A zero-byte transfer on a file channel, to find out whether the channel allows that direction. */
    private interface Probe {
        void run() throws IOException;
    }

    /**
     * Whether {@code probe} is allowed: false only for the JDK's "not opened for this" exceptions. Anything else
     * it throws (a file of another implementation, direct-I/O rules) leaves the decision to the engine's own call.
     */
    private static boolean allows(Probe probe) throws IOException {
        try {
            probe.run();
            return true;
        } catch (NonReadableChannelException | NonWritableChannelException e) {
            return false;
        } catch (ClosedChannelException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            return true;
        }
    }

    /**
     * The processor running files, its dedicated leader started (the first file starts the secondary's leader).
     *
     * @throws UnsupportedOperationException if no engine runs files
     * @throws IllegalStateException         if closed
     */
    private Processor fileProcessor() {
        Processor p = processorFor(OpKind.READ_FILE);
        if (p == null || !p.supports(OpKind.WRITE_FILE)) {
            throw new UnsupportedOperationException("no engine of " + demultiplexor + " runs files: engine '"
                    + demultiplexor.getEngineName() + "' does not and " + ProactorConfig.FILE_ENGINE + " is '"
                    + demultiplexor.getConfig().fileEngine() + "' (use '" + ProactorConfig.FILE_ENGINE_THREADPOOL
                    + "')");
        }
        // under the life-cycle lock: a leader started after close() had stopped the leaders would never stop
        demultiplexor.whileOpen(() -> p.startDedicatedLeader(fileLeaderName));
        return p;
    }

    /**
     * Registers a connection {@code p}'s engine accepted, with that processor: the handle is the engine's, so no
     * other engine could take it. The handle is discarded if it cannot be registered.
     */
    ChannelCore.Registration adopt(Processor p, Object acceptedHandle) throws IOException {
        if (demultiplexor.isClosed()) {
            p.engine().discard(acceptedHandle);
            throw new IllegalStateException("demultiplexor is closed");
        }
        EngineChannel ch;
        try {
            ch = p.engine().adopt(acceptedHandle);
        } catch (IOException | RuntimeException e) {
            p.engine().discard(acceptedHandle);
            throw e;
        }
        return new ChannelCore.Registration(p, ch, ChannelType.SOCKET);
    }

    private Processor streamProcessor() {
        Processor p = processorFor(OpKind.READ);
        if (p == null) {
            throw new IllegalArgumentException("no engine of " + demultiplexor + " supports stream sockets");
        }
        return p;
    }

    /** The first processor whose engine supports {@code kind} (seed §7.3), or null. */
    Processor processorFor(OpKind kind) {
        for (Processor p : processors) {
            if (p.supports(kind)) {
                return p;
            }
        }
        return null;
    }
}
