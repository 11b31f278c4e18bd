package dev.proactor.jni.engine;

import dev.proactor.jni.Errors;
import dev.proactor.jni.internal.IoNative;
import java.io.IOException;

/**
 * The handle of a connection accepted but not yet adopted, for the epoll and io_uring engines. The core hands it to
 * the engine's {@code adopt(Object)} and, if that fails or nobody adopts it, to its {@code discard(Object)}; the
 * descriptor has exactly one owner at a time (this handle, a channel after an adopt, or nobody after a discard closed
 * it), so it is closed exactly once whatever the order.
 *
 * <p>Thread-safe: adopt and discard may race on any threads; the owned flag is guarded by this object's monitor.
 */
public final class AcceptedSocket {

    /** Makes an engine's channel of the accepted descriptor (see {@link #adopt}). */
    @FunctionalInterface
    public interface Adopter<C> {

        /**
         * @param fd the accepted descriptor, which the channel owns once this returns
         * @throws IOException if no channel can be made; the handle keeps the descriptor then
         */
        C adopt(int fd) throws IOException;
    }

    public final int fd;
    /** Whether this handle still owns the descriptor (not adopted, not discarded). Guarded by this. */
    private boolean owned = true;

    public AcceptedSocket(int fd) {
        this.fd = fd;
    }

    /**
     * Makes a channel of the accepted connection with {@code adopter} and gives the descriptor up to it. Holds this
     * handle's monitor throughout, so a concurrent {@link #discard()} waits and then finds the descriptor adopted. On
     * failure the handle keeps the descriptor, and the core closes it with a discard.
     *
     * @throws IllegalStateException if the handle was already adopted or discarded
     * @throws IOException           as {@code adopter} throws it
     */
    public synchronized <C> C adopt(Adopter<C> adopter) throws IOException {
        if (!owned) {
            throw new IllegalStateException(this + " was already adopted or discarded");
        }
        C channel = adopter.adopt(fd);
        owned = false;
        return channel;
    }

    /**
     * Closes the descriptor unless it was adopted or discarded before (then it is not this handle's to close).
     *
     * @return the failure of close(2), for the caller to log, or null
     */
    public IOException discard() {
        synchronized (this) {
            if (!owned) {
                return null; // adopted or discarded before: the descriptor is not ours to close
            }
            owned = false;
        }
        int result = IoNative.close(fd);
        return result < 0 ? Errors.newException("close", result) : null;
    }

    @Override
    public String toString() {
        return "accepted socket fd " + fd;
    }
}
