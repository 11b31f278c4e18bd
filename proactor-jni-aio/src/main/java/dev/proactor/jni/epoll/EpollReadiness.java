package dev.proactor.jni.epoll;

import dev.proactor.jni.internal.EpollNative;
import dev.proactor.spi.IoRequest;
import java.io.IOException;
import java.nio.channels.AsynchronousCloseException;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's side of one {@link EpollEngine}: what happens around each poll of the epoll set. It retries a channel's
 * parked requests on its readiness events, fails the requests of channels retired by other threads, lets the attached
 * completion source add its completions, and queues every finished request for the wait strategy.
 *
 * <p>Threads and locks: {@link #onReady}, {@link #collectOrphans} and {@link #collectSource} run in the leader only
 * ({@link EpollPoller} calls them), and only the leader touches the queue of completed requests. {@link #onReady} and
 * {@link #collectOrphans} take the channel's lock. {@link #retireIfOwnerClosed} runs in any thread, with the channel's
 * lock held; a thread other than the leader hands the parked requests of a channel it retired to the leader through
 * the orphan queue and an interrupt, since only the leader may queue completions. A failed system call fails its
 * request, never the poll; only the attached source's failure is thrown.
 */
final class EpollReadiness {

    /** The engine's logger: a failed release is logged under the same name as before this code moved here. */
    private static final Logger LOG = LoggerFactory.getLogger(EpollEngine.class);

    private static final int INPUT_EVENTS =
            EpollNative.EPOLLIN | EpollNative.EPOLLRDHUP | EpollNative.EPOLLHUP | EpollNative.EPOLLERR;
    /** Input events after which a read may find an end of stream or an error without a further event. */
    private static final int ENDED_EVENTS = EpollNative.EPOLLRDHUP | EpollNative.EPOLLHUP | EpollNative.EPOLLERR;
    private static final int OUTPUT_EVENTS = EpollNative.EPOLLOUT | EpollNative.EPOLLHUP | EpollNative.EPOLLERR;

    private final EpollChannelTable channels;
    /** Requests completed on readiness by the leader; only the leader touches it. */
    private final ArrayDeque<IoRequest> completed;
    /**
     * Channels retired outside the leader (their JDK channel was closed directly) with requests still parked,
     * for the leader to fail: only it may queue completions.
     */
    private final Queue<EpollChannel> orphans = new ConcurrentLinkedQueue<>();
    private final EventfdInterruptStrategy interrupt;

    /**
     * The attached completion source, or null; set once (by {@link EpollEngine#attach}, under its life-cycle lock),
     * read by the leader after each poll.
     */
    private volatile EpollCompletionSource source;

    /**
     * @param channels  the engine's channels by the ids their events carry
     * @param completed where the leader queues finished requests (the wait strategy takes them from there)
     * @param interrupt wakes the leader when another thread retired a channel with parked requests
     */
    EpollReadiness(EpollChannelTable channels, ArrayDeque<IoRequest> completed, EventfdInterruptStrategy interrupt) {
        this.channels = channels;
        this.completed = completed;
        this.interrupt = interrupt;
    }

    /** The attached completion source, or null. */
    EpollCompletionSource source() {
        return source;
    }

    /** Attaches the completion source; the engine's life-cycle lock held, and none attached yet. */
    void source(EpollCompletionSource completions) {
        source = completions;
    }

    /** In the leader, after a poll: lets the attached source add its completions. */
    void collectSource(boolean signalled) throws IOException {
        EpollCompletionSource s = source;
        if (s != null) {
            s.collect(signalled, completed);
        }
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
                channel.inputDrained = false; // bytes (or an end of stream, or an error) arrived since
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
        boolean done = EpollOperations.tryOnceOrFail(channel, request);
        if (done) {
            completed.add(request);
        }
        return done;
    }
}
