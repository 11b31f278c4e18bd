package dev.proactor.jni.engine;

import dev.proactor.jni.Errors;
import dev.proactor.jni.internal.IoNative;
import java.io.IOException;

/**
 * Collects the failures of a close that must go on closing after the first one: the engines close every
 * channel, then their own descriptors, and report the first failure with the later ones suppressed in it.
 */
public final class CloseFailures {

    private CloseFailures() {
    }

    /**
     * @param first the failure kept so far, or null
     * @param next  a further failure
     * @return {@code first} with {@code next} suppressed in it, or {@code next} when there was none
     */
    public static IOException addTo(IOException first, IOException next) {
        if (first == null) {
            return next;
        }
        first.addSuppressed(next);
        return first;
    }

    /**
     * Closes a descriptor while another failure is being reported; a failure of the close is suppressed in it.
     *
     * @param fd      the descriptor, or a negative value for none
     * @param failure the failure being reported
     */
    public static void closeQuietly(int fd, Throwable failure) {
        if (fd < 0) {
            return;
        }
        int result = IoNative.close(fd);
        if (result < 0) {
            failure.addSuppressed(Errors.newException("close", result));
        }
    }
}
