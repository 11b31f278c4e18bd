package dev.proactor.jni.epoll;

import static dev.proactor.jni.internal.CloseFailures.addTo;
import static dev.proactor.jni.internal.CloseFailures.closeQuietly;

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
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.Channel;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The epoll engine: one epoll set per engine, native non-blocking system calls on buffer addresses, an
 * eventfd to interrupt the leader. See the package documentation for the completion and lifetime rules.
 *
 * <p>Public (in a package the module does not export) so that the Linux AIO engine can run its sockets on it and
 * attach its own completions to the same wait ({@link #attach(int, EpollCompletionSource)}).
 */
public final class EpollEngine implements Engine {

    private static final Logger LOG = LoggerFactory.getLogger(EpollEngine.class);

    /** Every descriptor is registered once for both directions, edge-triggered (see the package documentation). */
    private static final int CHANNEL_EVENTS =
            EpollNative.EPOLLIN | EpollNative.EPOLLOUT | EpollNative.EPOLLRDHUP | EpollNative.EPOLLET;
    private static final int INPUT_EVENTS =
            EpollNative.EPOLLIN | EpollNative.EPOLLRDHUP | EpollNative.EPOLLHUP | EpollNative.EPOLLERR;
    /** Input events after which a read may find an end of stream or an error without a further event. */
    private static final int ENDED_EVENTS = EpollNative.EPOLLRDHUP | EpollNative.EPOLLHUP | EpollNative.EPOLLERR;
    private static final int OUTPUT_EVENTS = EpollNative.EPOLLOUT | EpollNative.EPOLLHUP | EpollNative.EPOLLERR;

    private final int epfd;
    /**
     * How many polls the leader has started: with {@link EpollChannel#drainedAtPoll}, whether a drained socket
     * was drained since the last look at the events. Written by the leader; a stale value only makes a start try
     * a read it could have skipped, or skip one it could have tried (see there: both are safe).
     */
    private volatile long polls;
    private final EpollChannelTable channels = new EpollChannelTable();
    /** Opens, registers, adopts and discards this engine's channels. */
    private final EpollChannels opener = new EpollChannels(this);
    /** Requests completed on readiness by the leader; only the leader touches it. */
    private final ArrayDeque<IoRequest> completed = new ArrayDeque<>(256);
    /**
     * Channels retired outside the leader (their JDK channel was closed directly) with requests still parked,
     * for the leader to fail: only it may queue completions.
     */
    private final Queue<EpollChannel> orphans = new ConcurrentLinkedQueue<>();
    private final WaitStrategy waitStrategy;
    /** Tests only: runs before each try of a stream request outside the channel's lock (null in production). */
    volatile Runnable beforeTryOutsideLock;
    private final EventfdInterruptStrategy interrupt;

    /** The attached completion source, or null; set once, read by the leader after each poll. */
    private volatile EpollCompletionSource source;

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
        EpollPoller poller = new EpollPoller(epfd, this, interrupt);
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
            if (source != null) {
                throw new IllegalStateException("a completion source is already attached to " + this);
            }
            Errors.check("epoll_ctl", EpollNative.epollCtl(epfd, EpollNative.EPOLL_CTL_ADD, fd, EpollNative.EPOLLIN,
                    EpollPoller.SOURCE_ID));
            source = completions;
        }
    }

    /** In the leader, after a poll: lets the attached source add its completions. */
    void collectSource(boolean signalled) throws IOException {
        EpollCompletionSource s = source;
        if (s != null) {
            s.collect(signalled, completed);
        }
    }

    // ---------------------------------------------------------------- requests

    /**
     * Tries the request once and parks it for the next event if it cannot finish now. A stream read or write is
     * tried outside the channel's lock, with its direction marked busy: the leader handling an event of the channel
     * meanwhile never waits for this thread's system call (on a busy core it would wait for this thread to be
     * scheduled again, with every other completion behind it); it notes the event instead, and this thread tries
     * again. The descriptor stays open until that system call has returned ({@link EpollChannel#deferRelease()}).
     * Other kinds are tried under the lock.
     */
    @Override
    public StartResult start(IoRequest request) {
        EpollChannel channel = (EpollChannel) request.channel();
        boolean input = EpollOperations.isInput(request.kind());
        boolean stream = request.kind() == OpKind.READ || request.kind() == OpKind.WRITE;
        synchronized (channel) {
            if (channel.released || retireIfOwnerClosed(channel, false)) {
                request.fail(new ClosedChannelException());
                return StartResult.COMPLETED;
            }
            if ((input ? channel.input != null || channel.inputTrying
                    : channel.output != null || channel.outputTrying)) {
                request.fail(new IllegalStateException("another " + (input ? "input" : "output")
                        + " request is pending on " + channel));
                return StartResult.COMPLETED;
            }
            // A stream read on a socket its last read drained, with no poll since, waits for the next event:
            // trying it now would make a system call that finds nothing (see EpollChannel.drainedAtPoll).
            boolean waitForEvent = input && channel.drainedAtPoll == polls && !channel.inputEnded
                    && request.kind() == OpKind.READ;
            if (waitForEvent) {
                park(channel, input, request);
                return StartResult.PENDING;
            }
            if (!stream) {
                try {
                    if (EpollOperations.tryOnce(channel, request)) {
                        return StartResult.COMPLETED;
                    }
                } catch (IOException | RuntimeException e) {
                    request.fail(e);
                    return StartResult.COMPLETED;
                }
                park(channel, input, request);
                return StartResult.PENDING;
            }
            beginTry(channel, input);
        }
        return tryOutsideLock(channel, input, request);
    }

    /** The stream request's tries at start, outside the channel's lock (see {@link #start}). */
    private StartResult tryOutsideLock(EpollChannel channel, boolean input, IoRequest request) {
        for (;;) {
            Runnable hook = beforeTryOutsideLock;
            if (hook != null) {
                hook.run();
            }
            boolean done;
            try {
                done = EpollOperations.tryOnce(channel, request);
            } catch (IOException | RuntimeException e) {
                request.fail(e);
                done = true;
            }
            synchronized (channel) {
                boolean eventCame = input ? channel.inputEventWhileTrying : channel.outputEventWhileTrying;
                if (input) {
                    channel.inputEventWhileTrying = false;
                } else {
                    channel.outputEventWhileTrying = false;
                }
                if (!done && eventCame && !channel.released) {
                    continue; // readiness came during the try, and its edge is consumed: look again
                }
                if (input && eventCame) {
                    channel.drainedAtPoll = -1; // bytes may have come after what the try found
                }
                endTry(channel, input);
                if (done) {
                    return StartResult.COMPLETED;
                }
                if (channel.released) {
                    request.fail(new AsynchronousCloseException());
                    return StartResult.COMPLETED;
                }
                park(channel, input, request);
                return StartResult.PENDING;
            }
        }
    }

    /** Lock held: the direction is busy with a try outside the lock, on a descriptor that stays open meanwhile. */
    private static void beginTry(EpollChannel channel, boolean input) {
        if (input) {
            channel.inputTrying = true;
            channel.inputEventWhileTrying = false;
        } else {
            channel.outputTrying = true;
            channel.outputEventWhileTrying = false;
        }
        channel.syscallsOutsideLock++;
    }

    /** Lock held: the try is over; the last system call of a released channel releases its descriptor. */
    private static void endTry(EpollChannel channel, boolean input) {
        if (input) {
            channel.inputTrying = false;
        } else {
            channel.outputTrying = false;
        }
        if (--channel.syscallsOutsideLock == 0 && channel.releaseDeferred) {
            channel.releaseDeferred = false;
            IOException failure = channel.releaseDescriptor();
            if (failure != null) {
                LOG.warn("releasing {} after its last system call failed: {}", channel, failure.getMessage());
            }
        }
    }

    /** Lock held: the request waits for the next event of its direction. */
    private static void park(EpollChannel channel, boolean input, IoRequest request) {
        if (input) {
            channel.input = request;
        } else {
            channel.output = request;
        }
    }

    @Override
    public boolean cancel(IoRequest request, Throwable reason) {
        EpollChannel channel = (EpollChannel) request.channel();
        if (channel == null) {
            return false;
        }
        synchronized (channel) {
            if (channel.input == request) {
                channel.input = null;
            } else if (channel.output == request) {
                channel.output = null;
                if (request.kind() == OpKind.TRANSMIT_FILE) {
                    channel.releaseTransmitSource();
                }
            } else {
                return false; // already completed (queued for dispatch) or never pending
            }
            request.fail(reason);
            return true;
        }
    }

    /** Polls started so far (see {@link #polls}). */
    long polls() {
        return polls;
    }

    /** The leader is about to poll. */
    void beforePoll() {
        polls++; // the leader's only writer: no lost update
    }

    /** An event for channel {@code id}, in the leader: retry its parked requests and queue what finished. */
    void onReady(long id, int events) {
        EpollChannel channel = channels.get(id);
        if (channel == null) {
            return; // closed since the wait collected the event
        }
        synchronized (channel) {
            if (channel.released) {
                return; // closed: the core's cancel collects its requests; retired: they are failed already
            }
            if (retireIfOwnerClosed(channel, true)) {
                return;
            }
            if ((events & INPUT_EVENTS) != 0) {
                channel.drainedAtPoll = -1; // bytes (or an end of stream, or an error) arrived since
                channel.inputEnded |= (events & ENDED_EVENTS) != 0;
                channel.inputEventWhileTrying |= channel.inputTrying; // its starter looks again
            }
            if ((events & OUTPUT_EVENTS) != 0) {
                channel.outputEventWhileTrying |= channel.outputTrying;
            }
            if ((events & INPUT_EVENTS) != 0 && channel.input != null && step(channel, channel.input)) {
                channel.input = null;
            }
            if ((events & OUTPUT_EVENTS) != 0 && channel.output != null && step(channel, channel.output)) {
                channel.output = null;
            }
        }
    }

    /**
     * If the user closed the registered JDK channel directly, retires the channel: releases the engine's
     * descriptor at once (it kept the socket open; releasing it ends the connection) and fails its parked
     * requests with {@link AsynchronousCloseException}: at once in the leader, else through the orphan queue and
     * an interrupt of the leader, since only the leader may queue completions. Channel lock held.
     *
     * @param leader whether the caller is the leader (inside {@link #onReady})
     * @return whether the channel was retired now (its descriptor must not be used)
     */
    boolean retireIfOwnerClosed(EpollChannel channel, boolean leader) {
        if (!channel.ownerClosed()) {
            return false;
        }
        channel.releaseTransmitSource();
        IOException failure = channel.deferRelease() ? null : channel.releaseDescriptor();
        channel.released = true;
        if (failure != null) {
            LOG.warn("releasing {} after its JDK channel was closed directly failed: {}", channel,
                    failure.getMessage());
        }
        if (leader) {
            failParked(channel);
        } else if (channel.input != null || channel.output != null) {
            orphans.add(channel);
            interrupt.interrupt();
        }
        return true;
    }

    /**
     * In the leader: fails the parked requests of channels retired by other threads
     * ({@link #retireIfOwnerClosed}) and queues them as completed. Cheap when there are none.
     */
    void collectOrphans() {
        EpollChannel channel;
        while ((channel = orphans.poll()) != null) {
            synchronized (channel) {
                failParked(channel);
            }
        }
    }

    /**
     * Fails what is parked on a retired channel with {@link AsynchronousCloseException} (as for a close while
     * pending) and queues it. A request the core cancelled meanwhile is no longer in its slot. Leader, lock held.
     */
    private void failParked(EpollChannel channel) {
        if (channel.input != null) {
            channel.input.fail(new AsynchronousCloseException());
            completed.add(channel.input);
            channel.input = null;
        }
        if (channel.output != null) {
            channel.output.fail(new AsynchronousCloseException());
            completed.add(channel.output);
            channel.output = null;
        }
    }

    /** Retries a parked request; queues it if it finished. Channel lock held. */
    private boolean step(EpollChannel channel, IoRequest request) {
        boolean done;
        try {
            done = EpollOperations.tryOnce(channel, request);
        } catch (IOException | RuntimeException e) {
            request.fail(e);
            done = true;
        }
        if (done) {
            completed.add(request);
        }
        return done;
    }

    /**
     * Closes every channel still registered (also ones adopted after the core closed its channels), then
     * the eventfd and the epoll set. Called once, after the leader has left; later additions fail.
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
