package dev.proactor.jni.internal;

/**
 * Natives and constants of {@code errno.c}: errno values as this platform defines them.
 *
 * <p>Native calls return {@code -errno}; compare with the negated constants here, e.g.
 * {@code result == -ErrnoNative.EAGAIN}.
 */
public final class ErrnoNative {

    public static final int EPERM = NativeConstants.intValue("EPERM");
    public static final int ENOENT = NativeConstants.intValue("ENOENT");
    public static final int EINTR = NativeConstants.intValue("EINTR");
    public static final int EIO = NativeConstants.intValue("EIO");
    public static final int EBADF = NativeConstants.intValue("EBADF");
    public static final int EAGAIN = NativeConstants.intValue("EAGAIN");
    /** Equal to {@link #EAGAIN} on Linux; kept because POSIX allows them to differ. */
    public static final int EWOULDBLOCK = NativeConstants.intValue("EWOULDBLOCK");
    public static final int ENOMEM = NativeConstants.intValue("ENOMEM");
    public static final int EACCES = NativeConstants.intValue("EACCES");
    public static final int EFAULT = NativeConstants.intValue("EFAULT");
    public static final int EINVAL = NativeConstants.intValue("EINVAL");
    public static final int ENFILE = NativeConstants.intValue("ENFILE");
    public static final int EMFILE = NativeConstants.intValue("EMFILE");
    public static final int EPIPE = NativeConstants.intValue("EPIPE");
    public static final int ENOSYS = NativeConstants.intValue("ENOSYS");
    public static final int ENOTSOCK = NativeConstants.intValue("ENOTSOCK");
    public static final int EOPNOTSUPP = NativeConstants.intValue("EOPNOTSUPP");
    public static final int EAFNOSUPPORT = NativeConstants.intValue("EAFNOSUPPORT");
    public static final int EADDRINUSE = NativeConstants.intValue("EADDRINUSE");
    public static final int EADDRNOTAVAIL = NativeConstants.intValue("EADDRNOTAVAIL");
    public static final int ENETUNREACH = NativeConstants.intValue("ENETUNREACH");
    public static final int ECONNABORTED = NativeConstants.intValue("ECONNABORTED");
    public static final int ECONNRESET = NativeConstants.intValue("ECONNRESET");
    public static final int EISCONN = NativeConstants.intValue("EISCONN");
    public static final int ENOTCONN = NativeConstants.intValue("ENOTCONN");
    public static final int ETIMEDOUT = NativeConstants.intValue("ETIMEDOUT");
    public static final int ECONNREFUSED = NativeConstants.intValue("ECONNREFUSED");
    public static final int EHOSTUNREACH = NativeConstants.intValue("EHOSTUNREACH");
    public static final int EALREADY = NativeConstants.intValue("EALREADY");
    public static final int EINPROGRESS = NativeConstants.intValue("EINPROGRESS");
    public static final int ECANCELED = NativeConstants.intValue("ECANCELED");
    public static final int EDESTADDRREQ = NativeConstants.intValue("EDESTADDRREQ");
    public static final int EMSGSIZE = NativeConstants.intValue("EMSGSIZE");
    public static final int ESPIPE = NativeConstants.intValue("ESPIPE");

    private ErrnoNative() {
    }

    /** The C library's description of an errno value ({@code strerror_r}). */
    public static native String strerror(int errno);
}
