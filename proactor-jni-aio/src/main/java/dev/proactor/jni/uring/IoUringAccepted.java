package dev.proactor.jni.uring;

/**
 * The handle of a connection accepted but not yet adopted; the descriptor has exactly one owner at a time (this
 * handle, a channel after {@link IoUringEngine#adopt(Object)}, or nobody after {@link IoUringEngine#discard(Object)}
 * closed it), so it is closed exactly once whatever the order.
 */
final class IoUringAccepted {

    final int fd;
    /** Guarded by this. */
    private boolean owned = true;

    IoUringAccepted(int fd) {
        this.fd = fd;
    }

    synchronized boolean isOwned() {
        return owned;
    }

    /** Gives the descriptor up; false if that already happened. */
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
