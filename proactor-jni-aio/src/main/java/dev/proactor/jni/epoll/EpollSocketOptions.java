package dev.proactor.jni.epoll;

import dev.proactor.jni.internal.SocketNative;
import java.net.SocketOption;
import java.net.StandardSocketOptions;
import java.util.Map;

/**
 * The {@link StandardSocketOptions} the epoll engine sets with {@code setsockopt(2)}: each maps to a level, an
 * option number and whether it is a boolean (0/1) or an integer. Others are unsupported.
 */
public final class EpollSocketOptions {

    /** Where an option lives in the kernel's option space. */
    public record Native(int level, int option, boolean isBoolean) {
    }

    private static final Map<SocketOption<?>, Native> OPTIONS = Map.of(
            StandardSocketOptions.TCP_NODELAY, new Native(SocketNative.IPPROTO_TCP, SocketNative.TCP_NODELAY, true),
            StandardSocketOptions.SO_KEEPALIVE, new Native(SocketNative.SOL_SOCKET, SocketNative.SO_KEEPALIVE, true),
            StandardSocketOptions.SO_REUSEADDR, new Native(SocketNative.SOL_SOCKET, SocketNative.SO_REUSEADDR, true),
            StandardSocketOptions.SO_REUSEPORT, new Native(SocketNative.SOL_SOCKET, SocketNative.SO_REUSEPORT, true),
            StandardSocketOptions.SO_BROADCAST, new Native(SocketNative.SOL_SOCKET, SocketNative.SO_BROADCAST, true),
            StandardSocketOptions.SO_RCVBUF, new Native(SocketNative.SOL_SOCKET, SocketNative.SO_RCVBUF, false),
            StandardSocketOptions.SO_SNDBUF, new Native(SocketNative.SOL_SOCKET, SocketNative.SO_SNDBUF, false));

    private EpollSocketOptions() {
    }

    /**
     * The native form of {@code name}.
     *
     * @throws UnsupportedOperationException if the engine does not support the option
     */
    public static Native of(SocketOption<?> name) {
        Native n = OPTIONS.get(name);
        if (n == null) {
            throw new UnsupportedOperationException("the epoll engine does not support socket option " + name
                    + "; supported: " + OPTIONS.keySet());
        }
        return n;
    }

    /** The int passed to setsockopt for {@code value}. */
    public static int toNative(SocketOption<?> name, Native n, Object value) {
        if (n.isBoolean()) {
            if (!(value instanceof Boolean b)) {
                throw new IllegalArgumentException(name + " needs a Boolean, not " + value);
            }
            return b ? 1 : 0;
        }
        if (!(value instanceof Integer i) || i < 0) {
            throw new IllegalArgumentException(name + " needs a non-negative Integer, not " + value);
        }
        return i;
    }

    /** The Java value of what getsockopt returned. */
    public static Object fromNative(Native n, int value) {
        return n.isBoolean() ? Boolean.valueOf(value != 0) : Integer.valueOf(value);
    }
}
