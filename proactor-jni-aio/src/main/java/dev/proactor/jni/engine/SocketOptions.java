package dev.proactor.jni.engine;

import dev.proactor.jni.internal.SocketNative;
import java.net.SocketException;
import java.net.SocketOption;
import java.net.StandardSocketOptions;
import java.util.Map;
import jdk.net.ExtendedSocketOptions;

/**
 * The socket options the native engines (epoll, io_uring, and Linux AIO through epoll) set with
 * {@code setsockopt(2)}: each maps to a level, an option number, whether it is a boolean (0/1) or an integer, and
 * whether it may only be read. The set covers what the JDK's socket channels support on Linux, the
 * {@link ExtendedSocketOptions} TCP keep-alive, quick-ack and NAPI id options included. Others are unsupported.
 * Used through {@link SocketDescriptors}. Stateless.
 */
final class SocketOptions {

    /** Where an option lives in the kernel's option space. */
    record Native(int level, int option, boolean isBoolean, boolean readOnly) {

        Native(int level, int option, boolean isBoolean) {
            this(level, option, isBoolean, false);
        }
    }

    private static final int TCP = SocketNative.IPPROTO_TCP;
    private static final int SOCKET = SocketNative.SOL_SOCKET;

    private static final Map<SocketOption<?>, Native> OPTIONS = Map.ofEntries(
            Map.entry(StandardSocketOptions.TCP_NODELAY, new Native(TCP, SocketNative.TCP_NODELAY, true)),
            Map.entry(StandardSocketOptions.SO_KEEPALIVE, new Native(SOCKET, SocketNative.SO_KEEPALIVE, true)),
            Map.entry(StandardSocketOptions.SO_REUSEADDR, new Native(SOCKET, SocketNative.SO_REUSEADDR, true)),
            Map.entry(StandardSocketOptions.SO_REUSEPORT, new Native(SOCKET, SocketNative.SO_REUSEPORT, true)),
            Map.entry(StandardSocketOptions.SO_BROADCAST, new Native(SOCKET, SocketNative.SO_BROADCAST, true)),
            Map.entry(StandardSocketOptions.SO_RCVBUF, new Native(SOCKET, SocketNative.SO_RCVBUF, false)),
            Map.entry(StandardSocketOptions.SO_SNDBUF, new Native(SOCKET, SocketNative.SO_SNDBUF, false)),
            Map.entry(ExtendedSocketOptions.TCP_KEEPIDLE, new Native(TCP, SocketNative.TCP_KEEPIDLE, false)),
            Map.entry(ExtendedSocketOptions.TCP_KEEPINTERVAL, new Native(TCP, SocketNative.TCP_KEEPINTVL, false)),
            Map.entry(ExtendedSocketOptions.TCP_KEEPCOUNT, new Native(TCP, SocketNative.TCP_KEEPCNT, false)),
            Map.entry(ExtendedSocketOptions.TCP_QUICKACK, new Native(TCP, SocketNative.TCP_QUICKACK, true)),
            Map.entry(ExtendedSocketOptions.SO_INCOMING_NAPI_ID,
                    new Native(SOCKET, SocketNative.SO_INCOMING_NAPI_ID, false, true)));

    private SocketOptions() {
    }

    /**
     * The native form of {@code name}.
     *
     * @throws UnsupportedOperationException if the engine does not support the option (the message names epoll
     *                                       for every engine, as it always has)
     */
    static Native of(SocketOption<?> name) {
        Native n = OPTIONS.get(name);
        if (n == null) {
            throw new UnsupportedOperationException("the epoll engine does not support socket option " + name
                    + "; supported: " + OPTIONS.keySet());
        }
        return n;
    }

    /**
     * The int passed to setsockopt for {@code value}.
     *
     * @throws SocketException          if the option may only be read (as the JDK's channels do)
     * @throws IllegalArgumentException if the value has the wrong type or is negative
     */
    static int toNative(SocketOption<?> name, Native n, Object value) throws SocketException {
        if (n.readOnly()) {
            throw new SocketException("socket option " + name + " is read-only");
        }
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
    static Object fromNative(Native n, int value) {
        return n.isBoolean() ? Boolean.valueOf(value != 0) : Integer.valueOf(value);
    }
}
