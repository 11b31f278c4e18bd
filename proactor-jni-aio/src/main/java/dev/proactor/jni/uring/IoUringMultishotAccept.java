package dev.proactor.jni.uring;

import dev.proactor.jni.Errors;
import dev.proactor.jni.engine.AcceptedSocket;
import dev.proactor.jni.internal.ErrnoNative;
import dev.proactor.jni.internal.IoUringNative;
import dev.proactor.jni.internal.Sockaddr;
import dev.proactor.jni.internal.SocketNative;
import dev.proactor.spi.IoRequest;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Arrays;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The multishot accept of one listening channel ({@code proactor.uring.multishotAccept}): one
 * {@code IORING_OP_ACCEPT} with {@code IORING_ACCEPT_MULTISHOT} that stays armed across the accepts the core starts
 * on the channel, one at a time. Each connection it takes comes as a CQE with {@code IORING_CQE_F_MORE}: it
 * completes the accept pending then, or, when none is, it is <em>held</em> (descriptor and peer address) and the
 * next accept started takes it at start, without the ring. A CQE without {@code F_MORE} is the accept's last (an
 * error, its cancel, a CQ overflow): it is armed again by the next accept that finds nothing held, or at once for
 * the accept pending then. Slot and requests as every multishot's ({@link IoUringMultishot}): an accept it serves
 * has no slot of its own, so its cancel ends it at once and never cancels the armed accept.
 *
 * <p>Bound: when {@link #HELD_LIMIT} connections are held and no accept is pending, the armed accept is cancelled
 * ({@link IoUringStarter#cancelMultishot}), so only those and the connections accepted before the cancel took effect
 * are taken ahead of the application (the kernel's accept loop may take what is queued in one go); the next accept
 * that finds nothing held arms it again. Not at the first held connection: a listener under steady load has a
 * connection arrive between an accept's completion and the next accept's start often, and a cancel for each would
 * cost a cancel, a try and a new arming SQE per connection, more than an {@code ACCEPT} per accept.
 *
 * <p>Order and sharing: while the accept is armed (from its SQE to its last CQE) no accept is tried at start with
 * {@code accept4} ({@link IoUringAcceptOps}): that try polls first, and the armed accept could take the connection
 * it saw and leave it blocked. Held connections are handed out first, in the order accepted; accepts carry no stream
 * order, so a connection taken by a try or by another channel on the same socket meanwhile is no reordering.
 *
 * <p>Peer address: the kernel writes the SQE's one socket address block for every connection of a multishot
 * accept, so a block read at reap time may already hold the next one's; the peer is asked with
 * {@code getpeername} on the new descriptor instead (one system call per connection, at its CQE). A connection
 * reset before that answers is closed and counted as never accepted, as an {@code ECONNABORTED} accept is.
 *
 * <p>Close: held connections are closed with a reset ({@link IoUringNative#closeWithReset}), which is what the peer
 * of a connection left in a closed listener's backlog sees; connections the accept still reports after the close
 * are closed the same way; the armed accept is cancelled.
 *
 * <p>Threads: guarded by the channel's monitor (starting threads, the leader handling its CQEs, the closing thread).
 */
final class IoUringMultishotAccept extends IoUringMultishot {

    private static final Logger LOG = LoggerFactory.getLogger(IoUringMultishotAccept.class);

    /** Connections held with no accept pending at which the armed accept is cancelled. */
    static final int HELD_LIMIT = 8;

    /** Whether the channel closed: connections still reported are reset at once. */
    private boolean closed;

    /** Held connections, oldest at {@link #head}: descriptors and peers, a ring of {@link #fds}' length. */
    private int[] fds = new int[4];
    private InetSocketAddress[] peers = new InetSocketAddress[4];
    private int head;
    private int held;

    /** Connections held now (tests). */
    int held() {
        return held;
    }

    /** Whether a connection is held for the next accept. */
    @Override
    boolean hasHeld() {
        return held > 0;
    }

    /** As {@link #untaken}; an accept brings no block. */
    @Override
    boolean holdUntaken(IoUringDirection dir, int result, int block, IoUringBufferRing ring) {
        untaken(dir, result);
        return false;
    }

    /**
     * Completes {@code request} with the oldest held connection, if any.
     *
     * @return whether it did
     */
    boolean takeHeld(IoRequest request) {
        if (held == 0) {
            return false;
        }
        int fd = fds[head];
        InetSocketAddress peer = peers[head];
        peers[head] = null;
        head = (head + 1) % fds.length;
        held--;
        request.completeAccept(new AcceptedSocket(fd), peer);
        return true;
    }

    /**
     * For an accept that found nothing held and was not accepted at start: waits for the armed accept, or describes
     * the SQE that arms it ({@link IoUringSqe#multishotAccept}: the starter gives it a slot of its own), or, on a
     * thread that may not arm it ({@link IoUringOpsContext#mayArmMultishot}), one {@code ACCEPT} of the request's own.
     *
     * @return {@link IoUringSqe#WAITS_FOR_MULTISHOT} or the direction's SQE, described
     */
    IoUringSqe waitOrArm(IoUringOpsContext context, IoUringDirection dir) {
        if (armed()) {
            return IoUringSqe.WAITS_FOR_MULTISHOT;
        }
        if (!context.mayArmMultishot()) {
            dir.mode = 0; // a thread whose SQEs another submits: one ACCEPT (IoUringOpsContext#mayArmMultishot)
            return IoUringAcceptOps.submitAccept(dir);
        }
        return dir.sqe.multishotAccept(dir.channel.fd);
    }

    /**
     * The leader, at a CQE of the armed accept that no pending accept takes (none is pending, or the channel is
     * closed): a connection it brings is held, or reset if the channel is closed; an error is dropped (the next
     * accept arms again, and sees it if it lasts). The caller saw to its last CQE ({@link #ended}).
     */
    void untaken(IoUringDirection dir, int result) {
        if (result >= 0) {
            if (closed || !dir.channel.usable()) {
                reset(result);
            } else {
                hold(dir, result);
            }
        }
    }

    /**
     * The pending {@code request} takes the armed accept's CQE {@code result} (the leader, the channel open).
     *
     * @return null if the request finished (result recorded), else what to write for it: the arming SQE, or
     *         {@link IoUringSqe#WAITS_FOR_MULTISHOT} while the accept stays armed
     * @throws IOException on an error the caller records as the result
     */
    IoUringSqe complete(IoUringOpsContext context, IoUringDirection dir, IoRequest request, int result)
            throws IOException {
        if (result >= 0) {
            InetSocketAddress peer = peerOf(dir, result);
            if (peer == null) {
                return waitOrArm(context, dir); // reset before it could be handed out: take the next one
            }
            request.completeAccept(new AcceptedSocket(result), peer);
            return null;
        }
        // The accept ended: a connection reset while queued ends it too, as does the cancel asked while a connection
        // was held (an accept of the request's own is never cancelled in the ring: IoUringStarter#cancel).
        if ((result == -ErrnoNative.ECONNABORTED || result == -ErrnoNative.ECANCELED) && dir.channel.usable()
                && dir.cancelReason == null) {
            return waitOrArm(context, dir);
        }
        throw Errors.newException("accept", result);
    }

    /** Whether the armed accept is to be cancelled: {@link #HELD_LIMIT} connections are held, or the channel closed. */
    @Override
    boolean needsCancel() {
        return armed() && !cancelAsked() && (held >= HELD_LIMIT || closed);
    }

    /** The channel closes: resets the held connections, and any the accept still reports. */
    void close() {
        closed = true;
        while (held > 0) {
            int fd = fds[head];
            peers[head] = null;
            head = (head + 1) % fds.length;
            held--;
            reset(fd);
        }
    }

    private void hold(IoUringDirection dir, int fd) {
        InetSocketAddress peer = peerOf(dir, fd);
        if (peer == null) {
            return;
        }
        if (held == fds.length) {
            int[] moreFds = new int[held * 2];
            InetSocketAddress[] morePeers = new InetSocketAddress[held * 2];
            for (int i = 0; i < held; i++) {
                moreFds[i] = fds[(head + i) % fds.length];
                morePeers[i] = peers[(head + i) % fds.length];
            }
            Arrays.fill(peers, null);
            fds = moreFds;
            peers = morePeers;
            head = 0;
        }
        int tail = (head + held) % fds.length;
        fds[tail] = fd;
        peers[tail] = peer;
        held++;
    }

    /**
     * The accepted connection's peer ({@code getpeername}), or null if the connection is gone already (then its
     * descriptor is closed here: it is treated as never accepted, as an {@code ECONNABORTED} accept).
     */
    private static InetSocketAddress peerOf(IoUringDirection dir, int fd) {
        Sockaddr peer = dir.scratch.sockaddr();
        int result = SocketNative.peerAddress(fd, peer);
        if (result == 0) {
            return peer.get();
        }
        if (result != -ErrnoNative.ENOTCONN) {
            LOG.warn("getpeername of a connection accepted on {} failed ({}); the connection is closed", dir.channel,
                    Errors.newException("getpeername", result).getMessage());
        }
        reset(fd);
        return null;
    }

    /** Closes an accepted connection nobody will get, so that its peer sees a reset. */
    private static void reset(int fd) {
        int result = IoUringNative.closeWithReset(fd);
        if (result < 0) {
            LOG.warn("closing a connection accepted ahead failed: {}",
                    Errors.newException("close", result).getMessage());
        }
    }
}
