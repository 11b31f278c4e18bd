package dev.proactor.jni;

import java.io.IOException;

/**
 * A native call failed with an errno that has no more specific Java exception.
 *
 * <p>Also the cause of the {@link java.net.ConnectException}s and
 * {@link java.nio.channels.ClosedChannelException}s that {@link Errors} creates, so the errno and the
 * call are always recoverable.
 */
public final class NativeIoException extends IOException {

    private static final long serialVersionUID = 1L;

    private final String call;
    private final int errno;

    /**
     * @param call the failed call, e.g. {@code "connect"}
     * @param errno the positive errno value
     * @param description the C library's text for it
     */
    public NativeIoException(String call, int errno, String description) {
        super(call + " failed: " + description + " (errno " + errno + ")");
        this.call = call;
        this.errno = errno;
    }

    /** The name of the failed native call. */
    public String call() {
        return call;
    }

    /** The positive errno value the call failed with. */
    public int errno() {
        return errno;
    }
}
