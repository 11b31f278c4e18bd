package dev.proactor.jni.epoll;

import dev.proactor.spi.IoRequest;
import dev.proactor.spi.OpKind;
import dev.proactor.spi.StartResult;
import java.io.IOException;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedChannelException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How one {@link EpollEngine} starts and cancels requests (the engine's {@code start} and {@code cancel} delegate
 * here): a request is tried once, and parked in its channel for the leader ({@link EpollReadiness#onReady}) if it
 * cannot finish now.
 *
 * <p>Threads and locks: any thread starts and cancels, taking the channel's lock. A stream read or write is tried
 * outside that lock, with its direction marked busy, and the channel's descriptor stays open until that system
 * call has returned ({@link EpollChannel#deferRelease()}). A request that fails here ({@link Error}s included) is
 * failed and reported as completed; nothing is thrown.
 */
final class EpollStarter {

    /** The engine's logger: a failed release is logged under the same name as before this code moved here. */
    private static final Logger LOG = LoggerFactory.getLogger(EpollEngine.class);

    /** The leader's side: its poll count, and the retiring of a channel whose JDK channel was closed directly. */
    private final EpollReadiness readiness;
    /** Tests only: runs before each try of a stream request outside the channel's lock (null in production). */
    volatile Runnable beforeTryOutsideLock;

    EpollStarter(EpollReadiness readiness) {
        this.readiness = readiness;
    }

    /**
     * Tries the request once and parks it for the next event if it cannot finish now. A stream read or write is
     * tried outside the channel's lock, with its direction marked busy: the leader handling an event of the channel
     * meanwhile never waits for this thread's system call (on a busy core it would wait for this thread to be
     * scheduled again, with every other completion behind it); it notes the event instead, and this thread tries
     * again. The descriptor stays open until that system call has returned ({@link EpollChannel#deferRelease()}).
     * Other kinds are tried under the lock.
     */
    StartResult start(IoRequest request) {
        EpollChannel channel = (EpollChannel) request.channel();
        boolean input = EpollOperations.isInput(request.kind());
        boolean stream = request.kind() == OpKind.READ || request.kind() == OpKind.WRITE;
        synchronized (channel) {
            if (channel.released || readiness.retireIfOwnerClosed(channel, false)) {
                request.fail(new ClosedChannelException());
                return StartResult.COMPLETED;
            }
            if ((input ? channel.input != null || channel.inputTrying
                    : channel.output != null || channel.outputTrying)) {
                request.fail(new IllegalStateException("another " + (input ? "input" : "output")
                        + " request is pending on " + channel));
                return StartResult.COMPLETED;
            }
            // A stream read on a socket its last read drained, with no input event since, waits for the next event:
            // trying it now would make a system call that finds nothing (see EpollChannel.inputDrained), unless a
            // thread blocks for it: then no thread may be left to poll (IoRequest.awaited).
            boolean waitForEvent = input && channel.inputDrained && !channel.inputEnded
                    && request.kind() == OpKind.READ && !request.awaited();
            if (waitForEvent) {
                park(channel, input, request);
                return StartResult.PENDING;
            }
            if (!stream) {
                if (EpollOperations.tryOnceOrFail(channel, request)) {
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
            boolean done;
            try {
                Runnable hook = beforeTryOutsideLock;
                if (hook != null) {
                    hook.run();
                }
                done = EpollOperations.tryOnceOrFail(channel, request);
            } catch (Throwable e) {
                // The tests' hook (tryOnceOrFail records what it throws): the try must end below whatever happens,
                // or the direction would stay busy and the descriptor's release deferred for ever.
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
                    channel.inputDrained = false; // bytes may have come after what the try found
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

    /**
     * Takes a parked request out of its channel and fails it with {@code reason}; any thread, under the channel's
     * lock. A transmission's file descriptor is released with it.
     *
     * @return whether the request was parked here (false: already completed and queued for dispatch, or never
     *         pending)
     */
    boolean cancel(IoRequest request, Throwable reason) {
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
}
