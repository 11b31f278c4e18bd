package dev.proactor.jni.uring;

import dev.proactor.jni.Errors;
import dev.proactor.jni.engine.AcceptedSocket;
import dev.proactor.jni.internal.ErrnoNative;
import dev.proactor.jni.internal.IoUringNative;
import dev.proactor.jni.internal.NativeMemory;
import dev.proactor.jni.internal.Sockaddr;
import dev.proactor.spi.IoRequest;
import java.io.IOException;

/**
 * Accept on a listening socket for {@link IoUringOps}: a queued connection is taken at start without the ring when
 * operations are tried at start and no other channel accepts on the socket ({@link IoUringListeners}), else by an
 * {@code IORING_OP_ACCEPT}, which is written again when the connection it took was aborted; or, with
 * {@code proactor.uring.multishotAccept}, by the channel's multishot accept ({@link IoUringMultishotAccept}), whose
 * held connections are taken at start first. Stateless; the caller
 * holds the channel's monitor (a starting thread, or the leader handling the accept's completion).
 */
final class IoUringAcceptOps {

    private IoUringAcceptOps() {
    }

    /**
     * Describes the accept's SQE, unless a queued connection is accepted at once.
     *
     * @return the SQE to write, or null if the request finished without one (result recorded)
     * @throws IOException on an error the caller records as the result
     */
    static IoUringSqe start(IoUringOpsContext context, IoUringDirection dir, IoRequest request) throws IOException {
        if (context.multishotAccept()) {
            return startMultishot(context, dir, request);
        }
        if (tryAccept(context, dir, request) && acceptNowIfAlone(context, dir, request)) {
            return null;
        }
        return submitAccept(dir);
    }

    /**
     * As {@link #start}, with multishot accepts ({@link IoUringMultishotAccept}): a held connection first; else the
     * armed accept if there is one (a try at start could lose what its poll saw to it); else a try at start as
     * above; else the multishot accept, armed now, if no other channel accepts on the socket, or one
     * {@code IORING_OP_ACCEPT} as without multishot if another does (a connection held by this channel would wait
     * for this channel's next accept while the other's waits too).
     *
     * @return the SQE to write, {@link IoUringSqe#WAITS_FOR_MULTISHOT}, or null if the request finished (result
     *         recorded)
     */
    private static IoUringSqe startMultishot(IoUringOpsContext context, IoUringDirection dir, IoRequest request)
            throws IOException {
        IoUringMultishotAccept multishot = dir.multishotAccept;
        if (multishot != null) {
            if (multishot.takeHeld(request)) {
                return null;
            }
            if (multishot.armed()) {
                dir.mode = IoUringOps.MODE_MULTISHOT;
                return multishot.waitOrArm(context, dir);
            }
        }
        if (tryAccept(context, dir, request) && acceptNowIfAlone(context, dir, request)) {
            return null;
        }
        IoUringListeners.Listener listener = dir.channel.listener;
        synchronized (listener) {
            if (!listener.acceptsAlone()) {
                return submitAccept(dir);
            }
        }
        if (multishot == null) {
            multishot = new IoUringMultishotAccept();
            dir.multishotAccept = multishot;
        }
        dir.mode = IoUringOps.MODE_MULTISHOT;
        return multishot.waitOrArm(context, dir);
    }

    /**
     * An awaited accept took its channel's multishot CQEs out of the ring ({@link IoUringAwaitedMultishot}): it
     * finishes with a connection held, or, the accept having ended with nothing held, tries the socket and arms the
     * accept again as any start does.
     *
     * @return the SQE to write, {@link IoUringSqe#WAITS_FOR_MULTISHOT}, or null if the request finished
     */
    static IoUringSqe afterTakingCqes(IoUringOpsContext context, IoUringDirection dir, IoRequest request)
            throws IOException {
        return startMultishot(context, dir, request);
    }

    /**
     * Records the result of the accept's SQE, or describes the next one when the connection was aborted.
     *
     * @return the next SQE to write, or null if the request finished (result recorded)
     * @throws IOException on an error the caller records as the result
     */
    static IoUringSqe complete(IoUringOpsContext context, IoUringDirection dir, IoRequest request, int result)
            throws IOException {
        if (dir.mode == IoUringOps.MODE_MULTISHOT) {
            return dir.multishotAccept.complete(context, dir, request, result);
        }
        if (result >= 0) {
            request.completeAccept(new AcceptedSocket(result), dir.scratch.sockaddr().get());
            return null;
        }
        if (result == -ErrnoNative.ECONNABORTED && dir.channel.usable() && dir.cancelReason == null) {
            return submitAccept(dir); // that connection is gone: take the next one
        }
        throw Errors.newException("accept", result);
    }

    /**
     * Whether to try an accept at start: as reads, unless the last try found no connection queued and no
     * completion was reaped since (the accept in the ring will say when one comes); always when a thread blocks for
     * it ({@link IoRequest#awaited()}: no thread may be left to reap it).
     */
    private static boolean tryAccept(IoUringOpsContext context, IoUringDirection dir, IoRequest request) {
        return request.awaited()
                || context.tryFirst().triesAtStart() && dir.drainedAtTurn != context.tryFirst().turns();
    }

    /**
     * Accepts a queued connection at start if no other channel of the process accepts on the socket (see
     * {@link IoUringListeners}): a try polls, then accepts, and another channel's accept in a ring could take the
     * connection in between and leave the try's {@code accept4} blocked. Holds the listener's monitor throughout,
     * so no channel joins meanwhile.
     *
     * @return true if the request finished (accepted), false if it was not tried or no connection is queued
     */
    private static boolean acceptNowIfAlone(IoUringOpsContext context, IoUringDirection dir, IoRequest request)
            throws IOException {
        IoUringListeners.Listener listener = dir.channel.listener;
        synchronized (listener) {
            return listener.acceptsAlone() && acceptNow(context, dir, request);
        }
    }

    /**
     * Accepts a queued connection at start, without the ring (a burst of connections is taken by the starting
     * threads, one system call each, instead of one ring round trip and one dispatch through the leader each), with
     * a non-blocking try that leaves the socket's shared file status flags alone ({@link IoUringNative#tryAccept}).
     *
     * @return true if the request finished (accepted), false if no connection is queued
     */
    private static boolean acceptNow(IoUringOpsContext context, IoUringDirection dir, IoRequest request)
            throws IOException {
        Sockaddr peer = dir.scratch.sockaddr();
        for (;;) {
            int result = IoUringNative.tryAccept(dir.channel.fd, peer);
            if (result >= 0) {
                request.completeAccept(new AcceptedSocket(result), peer.get());
                return true;
            }
            if (Errors.isAgain(result)) {
                dir.drainedAtTurn = context.tryFirst().turns();
                return false;
            }
            // A connection reset while queued concerns that connection only: take the next one.
            if (result != -ErrnoNative.ECONNABORTED) {
                throw Errors.newException("accept4", result);
            }
        }
    }

    /** Describes an {@code IORING_OP_ACCEPT} into the direction's socket address and socklen_t. */
    static IoUringSqe submitAccept(IoUringDirection dir) {
        long peer = IoUringNative.prepareForOutput(dir.scratch.sockaddr());
        NativeMemory message = dir.message();
        message.buffer().putInt(IoUringDirection.socklenOffset(), Sockaddr.CAPACITY);
        return dir.sqe.describe(IoUringNative.OP_ACCEPT, 0, dir.channel.fd, peer, 0,
                message.address(IoUringDirection.socklenOffset(), 4),
                IoUringNative.SOCK_CLOEXEC); // blocking: see IoUringNative.setBlocking
    }
}
