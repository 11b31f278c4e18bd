package dev.proactor.jni;

import dev.proactor.jni.internal.ErrnoNative;
import java.io.IOException;
import java.net.BindException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.nio.channels.ClosedChannelException;

/**
 * Turns the {@code -errno} results of native calls into exceptions, in one place.
 *
 * <p>Mapping, following the JDK's socket exceptions: {@code ECONNREFUSED} becomes a
 * {@link ConnectException}; {@code EADDRINUSE} and {@code EADDRNOTAVAIL} a {@link BindException};
 * {@code EHOSTUNREACH} and {@code ENETUNREACH} a {@link NoRouteToHostException}; {@code EBADF} a
 * {@link ClosedChannelException} (in this framework a bad descriptor means the channel was closed under
 * the call); anything else a {@link NativeIoException}. The mapped ones carry a {@link NativeIoException}
 * as their cause, so the errno and the call stay available. {@code EAGAIN} is not an error on a non-blocking
 * descriptor: test it with {@link #isAgain(long)} before asking for an exception.
 *
 * <p>Requires the native library (errno values and texts come from C); callers check availability first.
 */
public final class Errors {

    private Errors() {
    }

    /**
     * @param result a native call's result
     * @return whether the result is {@code -EAGAIN} (equivalently {@code -EWOULDBLOCK})
     */
    public static boolean isAgain(long result) {
        return result == -ErrnoNative.EAGAIN || result == -ErrnoNative.EWOULDBLOCK;
    }

    /**
     * Returns a successful result, or throws the exception for a failed one.
     *
     * @param call the native call's name, for the message
     * @param result its result, {@code >= 0} or {@code -errno}
     * @return {@code result} when it is {@code >= 0}
     * @throws IOException as mapped by {@link #newException(String, long)}
     */
    public static int check(String call, int result) throws IOException {
        if (result < 0) {
            throw newException(call, result);
        }
        return result;
    }

    /** As {@link #check(String, int)}, for calls returning a long. */
    public static long check(String call, long result) throws IOException {
        if (result < 0) {
            throw newException(call, result);
        }
        return result;
    }

    /**
     * The exception for a failed call.
     *
     * @param call the native call's name, for the message
     * @param result its result, which must be {@code -errno}
     * @throws IllegalArgumentException if {@code result} is not negative
     */
    public static IOException newException(String call, long result) {
        if (result >= 0 || result < Integer.MIN_VALUE) {
            throw new IllegalArgumentException("not a -errno result: " + result);
        }
        int errno = (int) -result;
        NativeIoException exception = new NativeIoException(call, errno, describe(errno));
        if (errno == ErrnoNative.ECONNREFUSED) {
            return withCause(new ConnectException(exception.getMessage()), exception);
        }
        if (errno == ErrnoNative.EADDRINUSE || errno == ErrnoNative.EADDRNOTAVAIL) {
            return withCause(new BindException(exception.getMessage()), exception);
        }
        if (errno == ErrnoNative.EHOSTUNREACH || errno == ErrnoNative.ENETUNREACH) {
            return withCause(new NoRouteToHostException(exception.getMessage()), exception);
        }
        if (errno == ErrnoNative.EBADF) {
            ClosedChannelException closed = new ClosedChannelException();
            closed.initCause(exception);
            return closed;
        }
        return exception;
    }

    private static SocketException withCause(SocketException exception, NativeIoException cause) {
        exception.initCause(cause);
        return exception;
    }

    /** The C library's description of a positive errno value. */
    public static String describe(int errno) {
        return ErrnoNative.strerror(errno);
    }
}
