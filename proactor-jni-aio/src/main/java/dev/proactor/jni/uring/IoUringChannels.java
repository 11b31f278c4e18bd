package dev.proactor.jni.uring;

import static dev.proactor.jni.engine.CloseFailures.closeQuietly;

import dev.proactor.jni.Errors;
import dev.proactor.jni.engine.AcceptedSocket;
import dev.proactor.jni.engine.DirectIoAlignment;
import dev.proactor.jni.engine.EngineSockets;
import dev.proactor.jni.internal.ErrnoNative;
import dev.proactor.jni.internal.FileNative;
import dev.proactor.jni.internal.IoNative;
import dev.proactor.jni.internal.IoUringNative;
import dev.proactor.spi.EngineChannel;
import java.io.IOException;
import java.net.SocketAddress;
import java.nio.channels.Channel;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The channels of one {@link IoUringEngine}: opens, registers, adopts and discards their descriptors (the engine's
 * {@code Engine} methods of the same names delegate here), keeps the set the engine's close closes, and releases a
 * closing channel's descriptor once the kernel consumed its SQEs (see {@link IoUringEngine}, "Closing a
 * descriptor").
 *
 * <p>Thread-safe: any thread opens, registers, adopts and discards; a channel is published only once complete.
 * {@link #release} is called by a channel's close, once per channel, from any thread.
 */
final class IoUringChannels {

    private static final Logger LOG = LoggerFactory.getLogger(IoUringChannels.class);

    private final IoUringEngine engine;
    private final IoUringRing ring;
    private final IoUringSubmission submission;
    private final RetiredDescriptors retired;
    private final Set<IoUringChannel> channels = ConcurrentHashMap.newKeySet();

    IoUringChannels(IoUringEngine engine, IoUringRing ring, IoUringSubmission submission,
                    RetiredDescriptors retired) {
        this.engine = engine;
        this.ring = ring;
        this.submission = submission;
        this.retired = retired;
    }

    /**
     * Takes over a JDK socket channel through the engine's own duplicate of its descriptor. The socket's file
     * description is shared with the JDK channel and is switched to blocking mode (see the package documentation):
     * the user must not use the JDK channel directly any more; closing the engine channel closes both.
     */
    EngineChannel register(Channel channel) throws IOException {
        return EngineSockets.register(channel, "io_uring", (fd, family) -> add(fd,
                channel instanceof DatagramChannel ? IoUringChannel.Kind.DATAGRAM
                        : channel instanceof ServerSocketChannel ? IoUringChannel.Kind.SERVER
                        : IoUringChannel.Kind.STREAM, family, channel));
    }

    EngineChannel openSocket(SocketAddress remoteHint) throws IOException {
        return EngineSockets.openSocket(remoteHint, (fd, family) -> add(fd, IoUringChannel.Kind.STREAM, family, null));
    }

    EngineChannel openServer(SocketAddress local, int backlog) throws IOException {
        return EngineSockets.openServer(local, backlog,
                (fd, family) -> add(fd, IoUringChannel.Kind.SERVER, family, null));
    }

    EngineChannel openDatagram(SocketAddress local) throws IOException {
        return EngineSockets.openDatagram(local, (fd, family) -> add(fd, IoUringChannel.Kind.DATAGRAM, family, null));
    }

    /**
     * Opens the file with the JDK ({@link FileChannel#open}, so every option means what it means there) and runs
     * reads and writes on the engine's duplicate of its descriptor; {@code size()} and closing go through the JDK
     * channel. {@link dev.proactor.ProactorOpenOption#DIRECT} sets {@code O_DIRECT} on the open file and makes every
     * transfer check its alignment before it reaches the ring.
     *
     * @throws IOException if the file cannot be opened, or cannot do direct I/O when asked to
     */
    EngineChannel openFile(Path path, Set<? extends OpenOption> options) throws IOException {
        Set<OpenOption> jdkOptions = new HashSet<>(options);
        boolean direct = jdkOptions.remove(dev.proactor.ProactorOpenOption.DIRECT);
        boolean write = jdkOptions.contains(StandardOpenOption.WRITE) || jdkOptions.contains(StandardOpenOption.APPEND);
        FileChannel file = FileChannel.open(path, jdkOptions);
        try {
            return fileChannel(file, true, jdkOptions.contains(StandardOpenOption.READ) || !write, write, direct,
                    "file " + path);
        } catch (IOException | RuntimeException e) {
            file.close();
            throw e;
        }
    }

    /**
     * Runs reads and writes on a duplicate of the descriptor of the user's {@code file}, which stays the user's:
     * closing the channel leaves it open, and closing it makes the channel unusable.
     *
     * @throws IllegalArgumentException if {@code file} is not the JDK's own file channel
     * @throws IOException              if it is closed, or cannot do direct I/O when asked to
     */
    EngineChannel wrapFile(FileChannel file, Set<? extends OpenOption> options) throws IOException {
        return fileChannel(file, false, options.contains(StandardOpenOption.READ),
                options.contains(StandardOpenOption.WRITE), options.contains(dev.proactor.ProactorOpenOption.DIRECT),
                "wrapped " + file);
    }

    private IoUringChannel fileChannel(FileChannel file, boolean owned, boolean readable, boolean writable,
                                       boolean direct, String description) throws IOException {
        int original = FileNative.fdOf(file);
        if (original == -ErrnoNative.EOPNOTSUPP) {
            throw new IllegalArgumentException("the io_uring engine needs the JDK's own FileChannel, not "
                    + file.getClass().getName());
        }
        if (original < 0) {
            throw Errors.newException("file descriptor", original);
        }
        int fd = Errors.check("fcntl(F_DUPFD_CLOEXEC)", FileNative.duplicate(original));
        try {
            DirectIoAlignment alignment = direct ? DirectIoAlignment.enable(fd, description) : null;
            IoUringChannel channel = new IoUringChannel(engine, fd, IoUringChannel.Kind.FILE, 0, file);
            channel.readable = readable;
            channel.writable = writable;
            channel.alignment = alignment;
            channel.closesOwner = owned;
            return add(channel); // published only once complete: a close of the engine may close it at once
        } catch (IOException | RuntimeException e) {
            closeQuietly(fd, e);
            throw e;
        }
    }

    EngineChannel adopt(Object acceptedHandle) throws IOException {
        return ((AcceptedSocket) acceptedHandle).adopt(fd -> add(fd, IoUringChannel.Kind.STREAM, 0, null));
    }

    void discard(Object acceptedHandle) {
        AcceptedSocket accepted = (AcceptedSocket) acceptedHandle;
        IOException failure = accepted.discard();
        if (failure != null) {
            LOG.warn("closing unadopted {} failed: {}", accepted, failure.getMessage());
        }
    }

    private IoUringChannel add(int fd, IoUringChannel.Kind kind, int family, Channel owner) throws IOException {
        if (kind != IoUringChannel.Kind.FILE) {
            Errors.check("fcntl(F_SETFL)", IoUringNative.setBlocking(fd));
        }
        IoUringChannel channel = new IoUringChannel(engine, fd, kind, family, owner);
        if (kind != IoUringChannel.Kind.SERVER) {
            return add(channel);
        }
        channel.listener = IoUringListeners.join(fd); // see IoUringAcceptOps: whether its accepts are tried at start
        try {
            return add(channel);
        } catch (IOException | RuntimeException e) {
            IoUringListeners.leave(channel.listener);
            throw e;
        }
    }

    /** Registers a channel made (and set up) by the caller. */
    private IoUringChannel add(IoUringChannel channel) throws IOException {
        if (engine.isClosing()) {
            throw new ClosedChannelException();
        }
        channels.add(channel);
        return channel;
    }

    /**
     * A channel is closing (no SQE can be written for it any more): forgets it and waits until the kernel has
     * consumed every SQE written before now, so its descriptor may be closed.
     *
     * @return false if the caller must not close the descriptor: the owner of a single-issuer ring closes it once
     *         the kernel consumed them (the caller is another thread), or the kernel did not consume them within
     *         {@link IoUringSubmission#ROOM_LIMIT_NANOS} (an SQE could still reach a number reused by the process)
     */
    boolean release(IoUringChannel channel) {
        channels.remove(channel);
        int mark = ring.writtenMark();
        if (!submission.mayEnter() && !ring.consumed(mark)) {
            retired.add(channel.fd, mark, channel.toString());
            retired.closeConsumed(ring); // the owner may have consumed them just now, and reaped before the add
            if (retired.waiting()) {
                // The owner may already block in an enter that took those SQEs in: it must come back to close.
                submission.wakeOwner();
            }
            return false;
        }
        long deadline = System.nanoTime() + IoUringSubmission.ROOM_LIMIT_NANOS;
        for (int spins = 0; !ring.consumed(mark); spins++) {
            if (System.nanoTime() - deadline > 0) {
                LOG.error("io_uring did not take in the SQEs written before closing {} within {} s; its descriptor"
                        + " is left open rather than risk I/O on a reused number", channel,
                        TimeUnit.NANOSECONDS.toSeconds(IoUringSubmission.ROOM_LIMIT_NANOS));
                return false;
            }
            submission.submitWritten();
            IoUringSubmission.pause(spins);
        }
        return true;
    }

    /** The channels open now, for the engine's close. */
    List<IoUringChannel> snapshot() {
        return new ArrayList<>(channels);
    }
}
