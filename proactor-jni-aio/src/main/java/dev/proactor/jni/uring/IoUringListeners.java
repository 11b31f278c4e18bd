package dev.proactor.jni.uring;

import dev.proactor.jni.Errors;
import dev.proactor.jni.internal.IoUringNative;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * The listening sockets io_uring server channels of this process accept on, each counted once per channel that
 * names it (the same socket through duplicates of its descriptor: one JDK channel registered twice, in one engine or
 * in two), so that an accept is tried at start only on a socket no other channel accepts on.
 *
 * <p>Why: accept has no per-call non-blocking flag, and the socket must stay blocking for the ring's accepts (the
 * file status flags are shared by every duplicate: setting {@code O_NONBLOCK} for one call would make another
 * channel's {@code ACCEPT} in a ring fail with {@code EAGAIN}). So a try polls first and accepts only if a connection
 * is queued ({@link IoUringNative#tryAccept}); that accept cannot block unless someone else took the connection in
 * between. A socket's own channel has one accept at a time; a second channel's accept could take it from the ring at
 * any moment, so with two channels none is tried. The count changes under the {@link Listener}'s monitor, which a
 * try holds from its check to its last accept: a channel that joins meanwhile waits for that try to end.
 *
 * <p>Another process accepting on the same socket is outside what the engine supports: the engine switches the
 * socket to blocking mode for its ring, which that process would see too.
 *
 * <p>Thread-safe: {@link #join} and {@link #leave} take this registry's lock, then the listener's; a try takes the
 * listener's only (under its channel's monitor: lock order channel, registry, listener).
 */
final class IoUringListeners {

    /** By inode of the socket. Guarded by itself. */
    private static final Map<Long, Listener> BY_SOCKET = new HashMap<>();

    private IoUringListeners() {
    }

    /** One listening socket, and how many channels of the process accept on it. */
    static final class Listener {

        private final long inode;
        /** Channels naming the socket. Guarded by this. */
        private int channels;

        private Listener(long inode) {
            this.inode = inode;
        }

        /**
         * Whether the calling channel is the only one accepting on the socket; to be called holding this listener's
         * monitor, kept until the try it allows is over.
         */
        boolean acceptsAlone() {
            assert Thread.holdsLock(this);
            return channels == 1;
        }
    }

    /**
     * Counts a new channel on the listening socket {@code fd} names; after any try under way on it has ended.
     *
     * @throws IOException if the socket cannot be identified
     */
    static Listener join(int fd) throws IOException {
        long inode = IoUringNative.inode(fd);
        if (inode < 0) {
            throw Errors.newException("fstat", inode);
        }
        synchronized (BY_SOCKET) {
            Listener listener = BY_SOCKET.computeIfAbsent(inode, Listener::new);
            synchronized (listener) {
                listener.channels++;
            }
            return listener;
        }
    }

    /** A channel of the socket closed (once per {@link #join}). */
    static void leave(Listener listener) {
        synchronized (BY_SOCKET) {
            synchronized (listener) {
                if (--listener.channels == 0) {
                    BY_SOCKET.remove(listener.inode);
                }
            }
        }
    }
}
