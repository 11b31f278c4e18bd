package dev.proactor.jni.epoll;

import static dev.proactor.jni.engine.CloseFailures.addTo;
import static dev.proactor.jni.engine.CloseFailures.closeQuietly;

import dev.proactor.jni.Errors;
import dev.proactor.jni.internal.EpollNative;
import dev.proactor.jni.internal.ErrnoNative;
import dev.proactor.jni.internal.IoNative;
import dev.proactor.spi.Engine;
import dev.proactor.spi.EngineChannel;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.OpKind;
import dev.proactor.spi.StartResult;
import dev.proactor.spi.WaitStrategy;
import java.io.IOException;
import java.net.SocketAddress;
import java.nio.channels.Channel;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayDeque;

/**
 * The epoll engine: one epoll set per engine, native non-blocking system calls on buffer addresses, an
 * eventfd to interrupt the leader. See the package documentation for the completion and lifetime rules.
 *
 * <p>This class holds the engine's life cycle: it makes the epoll set, the eventfd and the parts below, adds
 * channels to the set and removes them ({@link #add}, {@link #deregister}), attaches a completion source, and
 * closes it all. Its life-cycle lock orders every {@code epoll_ctl} and every channel addition against
 * {@link #close()}, so none uses a closed epoll fd; a channel's lock may be held when it is taken (a channel
 * released under its lock leaves the set), never the other way round. The rest it delegates: opening channels to
 * {@link EpollChannels}, starting and cancelling requests (any thread) to {@link EpollStarter}, and the leader's
 * work around each poll (readiness events, channels retired by other threads, the attached source) to
 * {@link EpollReadiness}.
 *
 * <p>Public (in a package the module does not export) so that the Linux AIO engine can run its sockets on it and
 * attach its own completions to the same wait ({@link #attach(int, EpollCompletionSource)}).
 */
public final class EpollEngine implements Engine {

    /** Every descriptor is registered once for both directions, edge-triggered (see the package documentation). */
    private static final int CHANNEL_EVENTS =
            EpollNative.EPOLLIN | EpollNative.EPOLLOUT | EpollNative.EPOLLRDHUP | EpollNative.EPOLLET;

    private final int epfd;
    private final EpollChannelTable channels = new EpollChannelTable();
    /** Opens, registers, adopts and discards this engine's channels. */
    private final EpollChannels opener = new EpollChannels(this);
    private final WaitStrategy waitStrategy;
    private final EventfdInterruptStrategy interrupt;
    /** What the leader does around each poll; holds the attached completion source. */
    private final EpollReadiness readiness;
    /** Starts and cancels requests. */
    private final EpollStarter starter;

    /** Orders channel additions and epoll_ctl calls against {@link #close()}, so none uses a closed epoll fd. */
    private final Object lifecycle = new Object();
    /** No channel may be added any more. Guarded by lifecycle. */
    private boolean closing;
    /** The epoll fd is closed. Guarded by lifecycle. */
    private boolean closed;

    /**
     * @param waitStrategyName {@value EpollWaitStrategy#NAME} or {@value EpollBusyPollWaitStrategy#NAME}
     * @throws IOException if the epoll set or the eventfd cannot be created
     */
    public EpollEngine(String waitStrategyName) throws IOException {
        if (!EpollEngineProvider.WAIT_STRATEGIES.contains(waitStrategyName)) {
            throw new IllegalArgumentException("unknown epoll wait strategy '" + waitStrategyName + "'; allowed: "
                    + EpollEngineProvider.WAIT_STRATEGIES);
        }
        epfd = Errors.check("epoll_create1", EpollNative.epollCreate(EpollNative.EPOLL_CLOEXEC));
        int efd = EpollNative.eventfd(0, EpollNative.EFD_NONBLOCK | EpollNative.EFD_CLOEXEC);
        int added = efd < 0 ? efd : EpollNative.epollCtl(epfd, EpollNative.EPOLL_CTL_ADD, efd, EpollNative.EPOLLIN,
                EpollPoller.INTERRUPT_ID);
        if (efd < 0 || added < 0) {
            IOException failure = Errors.newException(efd < 0 ? "eventfd" : "epoll_ctl", efd < 0 ? efd : added);
            closeQuietly(efd, failure);
            closeQuietly(epfd, failure);
            throw failure;
        }
        interrupt = new EventfdInterruptStrategy(efd);
        // Requests the leader completed, queued by the readiness side and handed out by the wait strategy; only
        // the leader touches it.
        ArrayDeque<IoRequest> completed = new ArrayDeque<>(256);
        readiness = new EpollReadiness(channels, completed, interrupt);
        starter = new EpollStarter(readiness);
        EpollPoller poller = new EpollPoller(epfd, readiness, interrupt);
        waitStrategy = waitStrategyName.equals(EpollWaitStrategy.NAME)
                ? new EpollWaitStrategy(poller, interrupt, completed)
                : new EpollBusyPollWaitStrategy(poller, interrupt, completed);
    }

    @Override
    public String name() {
        return EpollEngineProvider.NAME;
    }

    @Override
    public WaitStrategy waitStrategy() {
        return waitStrategy;
    }

    /**
     * Stream sockets (read, write, accept, connect), datagram sockets (receive, send) and file transmission to a
     * stream socket. Not file reads and writes: epoll cannot wait for regular files, so the core runs them on its
     * file engine.
     */
    @Override
    public boolean supports(OpKind kind) {
        return (EpollOperations.SUPPORTED & kind.bit()) != 0;
    }

    @Override
    public boolean startInterruptsLeader() {
        return false; // descriptors are in the epoll set from creation; a parked request needs no new interest
    }

    // ---------------------------------------------------------------- channels (see EpollChannels)

    @Override
    public EngineChannel register(Channel channel) throws IOException {
        return opener.register(channel);
    }

    @Override
    public EngineChannel openSocket(SocketAddress remoteHint) throws IOException {
        return opener.openSocket(remoteHint);
    }

    @Override
    public EngineChannel openServer(SocketAddress local, int backlog) throws IOException {
        return opener.openServer(local, backlog);
    }

    @Override
    public EngineChannel openDatagram(SocketAddress local) throws IOException {
        return opener.openDatagram(local);
    }

    @Override
    public EngineChannel adopt(Object acceptedHandle) throws IOException {
        return opener.adopt(acceptedHandle);
    }

    @Override
    public void discard(Object acceptedHandle) {
        opener.discard(acceptedHandle);
    }

    /**
     * Gives the descriptor an id and puts it in the epoll set (for {@link EpollChannels}); the caller closes the
     * descriptor if this throws.
     *
     * @param family see {@link EpollChannel#family}
     * @param owner  the JDK channel the user registered, or null
     * @throws ClosedChannelException if the engine is closing
     * @throws IOException            if {@code epoll_ctl} fails
     */
    EpollChannel add(int fd, EpollChannel.Kind kind, int family, Channel owner) throws IOException {
        synchronized (lifecycle) {
            if (closing) {
                throw new ClosedChannelException();
            }
            long id = channels.allocate();
            EpollChannel channel = new EpollChannel(this, fd, id, kind, family, owner);
            channels.publish(id, channel);
            int result = EpollNative.epollCtl(epfd, EpollNative.EPOLL_CTL_ADD, fd, CHANNEL_EVENTS, id);
            if (result < 0) {
                channels.release(id);
                throw Errors.newException("epoll_ctl", result);
            }
            return channel;
        }
    }

    /**
     * Removes a closing channel from the epoll set and the table; the channel releases the descriptor after.
     *
     * @return the failure to report, or null
     */
    IOException deregister(EpollChannel channel) {
        channels.release(channel.id());
        int result;
        synchronized (lifecycle) {
            if (closed) {
                return null; // the whole epoll set is gone
            }
            result = EpollNative.epollCtl(epfd, EpollNative.EPOLL_CTL_DEL, channel.fd, 0, 0);
        }
        // EBADF/ENOENT: the owner closed the descriptor behind our back, so it already left the set.
        if (result < 0 && result != -ErrnoNative.EBADF && result != -ErrnoNative.ENOENT) {
            return Errors.newException("epoll_ctl", result);
        }
        return null;
    }

    /**
     * Adds {@code fd} (readable when the source has completions, e.g. an eventfd) to the epoll set, level-triggered,
     * and calls {@code completions} in the leader after every poll (see {@link EpollCompletionSource}). At most one
     * source per engine; the caller keeps owning {@code fd} and closes it after this engine is closed (closing it
     * also takes it out of the epoll set).
     *
     * @throws IllegalStateException if a source is already attached
     * @throws IOException           if the engine is closed or {@code epoll_ctl} fails
     */
    public void attach(int fd, EpollCompletionSource completions) throws IOException {
        synchronized (lifecycle) {
            if (closing) {
                throw new ClosedChannelException();
            }
            if (readiness.source() != null) {
                throw new IllegalStateException("a completion source is already attached to " + this);
            }
            Errors.check("epoll_ctl", EpollNative.epollCtl(epfd, EpollNative.EPOLL_CTL_ADD, fd, EpollNative.EPOLLIN,
                    EpollPoller.SOURCE_ID));
            readiness.source(completions);
        }
    }

    // ---------------------------------------------------------------- requests (see EpollStarter, EpollReadiness)

    /**
     * Tries the request once and parks it for the next event if it cannot finish now; a stream read or write is
     * tried outside the channel's lock (see {@link EpollStarter#start}).
     */
    @Override
    public StartResult start(IoRequest request) {
        return starter.start(request);
    }

    @Override
    public boolean cancel(IoRequest request, Throwable reason) {
        return starter.cancel(request, reason);
    }

    /** Starts and cancels this engine's requests (tests set its hook). */
    EpollStarter starter() {
        return starter;
    }

    /** The leader's side of this engine: poll count, readiness events, retired channels, the attached source. */
    EpollReadiness readiness() {
        return readiness;
    }

    /**
     * Closes every channel still registered (also ones adopted after the core closed its channels), then
     * the eventfd and the epoll set. Called once, after the leader has left: by the core's close sequence
     * ({@link Engine#close()}), or by the Linux AIO engine this one serves the sockets of. A later call returns at
     * once, and later additions fail.
     *
     * @throws IOException if a channel, the eventfd or the epoll set failed to close: the first failure, later ones
     *                     suppressed in it (everything is still closed)
     */
    @Override
    public void close() throws IOException {
        synchronized (lifecycle) {
            if (closing) {
                return;
            }
            closing = true;
        }
        IOException failure = null;
        for (EpollChannel channel : channels.snapshot()) {
            try {
                channel.close();
            } catch (IOException e) {
                failure = addTo(failure, e);
            }
        }
        try {
            interrupt.close();
        } catch (IOException e) {
            failure = addTo(failure, e);
        }
        synchronized (lifecycle) {
            closed = true;
            int result = IoNative.close(epfd);
            if (result < 0) {
                failure = addTo(failure, Errors.newException("close(epoll)", result));
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public String toString() {
        return "epoll engine (" + waitStrategy.name() + ")";
    }
}
