package dev.proactor.jni.epoll;

/**
 * The handle of a connection accepted but not yet adopted. The core hands it to
 * {@link EpollEngine#adopt(Object)} and, if that fails or nobody adopts it, to
 * {@link EpollEngine#discard(Object)}; the descriptor has exactly one owner at a time, so it is closed
 * exactly once whatever the order.
 */
final class AcceptedSocket {

    final int fd;
    /** Whether this handle still owns the descriptor (not adopted, not discarded). Guarded by this. */
    private boolean owned = true;

    AcceptedSocket(int fd) {
        this.fd = fd;
    }

    /** Whether the descriptor is still this handle's to adopt or close. */
    synchronized boolean isOwned() {
        return owned;
    }

    /** Gives the descriptor up (to a channel, or to close(2)); {@code false} if that already happened. */
    synchronized boolean release() {
        boolean wasOwned = owned;
        owned = false;
        return wasOwned;
    }

    @Override
    public String toString() {
        return "accepted socket fd " + fd;
    }
}
