package dev.proactor.jni.aio;

import static dev.proactor.jni.engine.CloseFailures.addTo;

import dev.proactor.jni.epoll.EpollEngine;
import dev.proactor.spi.Engine;
import dev.proactor.spi.EngineChannel;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.OpKind;
import dev.proactor.spi.StartResult;
import dev.proactor.spi.WaitStrategy;
import java.io.IOException;
import java.net.SocketAddress;
import java.nio.channels.Channel;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Linux AIO engine: file reads and writes on a kernel AIO context ({@link AioContext}), every socket kind on an
 * {@link EpollEngine} it owns. The context's completion eventfd sits in that engine's epoll set
 * ({@link EpollEngine#attach}), so one leader wait (the epoll engine's wait strategy) covers sockets and files,
 * under the core's leader/follower processor like any engine.
 *
 * <p>Why sockets go to epoll and not to {@code IOCB_CMD_POLL} plus a non-blocking call: a one-shot poll iocb per
 * operation costs an {@code io_submit} and an {@code io_getevents} where the epoll engine's edge-triggered
 * registration costs nothing per operation, the socket semantics (datagrams, transmitFile, registered JDK channels,
 * close rules) are already the epoll engine's and stay identical, and the engine runs on kernels older than 4.18.
 *
 * <p>Threading: as every engine, all methods may be called from any thread; requests of each kind go to the part
 * that runs them.
 */
final class LinuxAioEngine implements Engine {

    private static final Logger LOG = LoggerFactory.getLogger(LinuxAioEngine.class);

    private final EpollEngine sockets;
    private final AioContext files;

    /**
     * @param waitStrategyName one of the epoll engine's wait strategies
     * @throws IOException if the epoll set or the AIO context cannot be created (the message says why)
     */
    LinuxAioEngine(String waitStrategyName) throws IOException {
        sockets = new EpollEngine(waitStrategyName);
        AioContext context;
        try {
            context = new AioContext();
        } catch (IOException | RuntimeException e) {
            closeQuietly(sockets, e);
            throw e;
        }
        files = context;
        try {
            sockets.attach(files.eventfd(), files::collect);
        } catch (IOException | RuntimeException e) {
            closeQuietly(sockets, e);
            try {
                files.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    private static void closeQuietly(EpollEngine engine, Throwable failure) {
        try {
            engine.close();
        } catch (IOException e) {
            failure.addSuppressed(e);
        }
    }

    /** The AIO context that runs the files (tests). */
    AioContext context() {
        return files;
    }

    @Override
    public String name() {
        return LinuxAioEngineProvider.NAME;
    }

    @Override
    public WaitStrategy waitStrategy() {
        return sockets.waitStrategy();
    }

    /** Files (read and write at a position) here, and everything the epoll engine runs. */
    @Override
    public boolean supports(OpKind kind) {
        return isFile(kind) || sockets.supports(kind);
    }

    private static boolean isFile(OpKind kind) {
        return (OpKind.FILE_MASK & kind.bit()) != 0;
    }

    @Override
    public boolean startInterruptsLeader() {
        return false; // the kernel signals the eventfd in the epoll set; sockets are registered at creation
    }

    @Override
    public int maxInFlight() {
        return sockets.maxInFlight();
    }

    @Override
    public EngineChannel register(Channel channel) throws IOException {
        return sockets.register(channel);
    }

    @Override
    public EngineChannel openSocket(SocketAddress remoteHint) throws IOException {
        return sockets.openSocket(remoteHint);
    }

    @Override
    public EngineChannel openServer(SocketAddress local, int backlog) throws IOException {
        return sockets.openServer(local, backlog);
    }

    @Override
    public EngineChannel adopt(Object acceptedHandle) throws IOException {
        return sockets.adopt(acceptedHandle);
    }

    @Override
    public void discard(Object acceptedHandle) {
        sockets.discard(acceptedHandle);
    }

    @Override
    public EngineChannel openDatagram(SocketAddress local) throws IOException {
        return sockets.openDatagram(local);
    }

    /**
     * Opens a file for kernel AIO; {@link dev.proactor.ProactorOpenOption#DIRECT} opens it with {@code O_DIRECT}
     * (see {@link AioFileChannel#open}).
     */
    @Override
    public EngineChannel openFile(Path path, Set<? extends OpenOption> options) throws IOException {
        return AioFileChannel.open(path, options);
    }

    /** Runs kernel AIO on the user's open file (see {@link AioFileChannel#wrap}). */
    @Override
    public EngineChannel wrapFile(FileChannel file, Set<? extends OpenOption> options) throws IOException {
        return AioFileChannel.wrap(file, options);
    }

    /** The kernel AIO context of the file requests (tests set its hook). */
    AioContext files() {
        return files;
    }

    @Override
    public StartResult start(IoRequest request) {
        return isFile(request.kind()) ? files.start(request) : sockets.start(request);
    }

    @Override
    public boolean cancel(IoRequest request, Throwable reason) {
        return isFile(request.kind()) ? files.cancel(request, reason) : sockets.cancel(request, reason);
    }

    /** Waits until the kernel holds no file request; what it reaped comes out of the next wait. */
    @Override
    public void quiesce() throws InterruptedException {
        sockets.quiesce();
        try {
            files.quiesce();
        } catch (IOException e) {
            // io_getevents failing here means the context is unusable; close() destroys it, which waits for the
            // kernel's requests, so nothing is left running on the user's buffers.
            LOG.error("collecting the last file completions failed", e);
        }
    }

    /**
     * Closes the sockets' engine (and with it the eventfd's place in its set), then the AIO context. Called once, by
     * the core's close sequence after the leader has left ({@link Engine#close()}); a later call returns at once, as
     * both parts' closes do.
     *
     * @throws IOException if either part failed to close: the first failure, a later one suppressed in it (both are
     *                     still closed)
     */
    @Override
    public void close() throws IOException {
        IOException failure = null;
        try {
            sockets.close();
        } catch (IOException e) {
            failure = e;
        }
        try {
            files.close();
        } catch (IOException e) {
            failure = addTo(failure, e);
        }
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public String toString() {
        return "linux-aio engine (files: kernel AIO, depth " + AioContext.DEPTH + "; sockets: " + sockets + ")";
    }
}
