package dev.proactor.nio2;

import java.net.SocketOption;
import java.net.StandardSocketOptions;
import java.util.Set;
import jdk.net.ExtendedSocketOptions;

/**
 * The socket options of the provider's channels: exactly those of the JDK's asynchronous channels on Linux, so a
 * program that checks {@code supportedOptions()} sees no difference. Every engine sets them all (the {@code nio}
 * engine through the JDK's channel, the native engines with {@code setsockopt}).
 */
final class SocketOptionSets {

    /** Options of an {@link java.nio.channels.AsynchronousSocketChannel}. */
    static final Set<SocketOption<?>> SOCKET = Set.of(
            StandardSocketOptions.SO_SNDBUF, StandardSocketOptions.SO_RCVBUF, StandardSocketOptions.SO_KEEPALIVE,
            StandardSocketOptions.SO_REUSEADDR, StandardSocketOptions.SO_REUSEPORT, StandardSocketOptions.TCP_NODELAY,
            ExtendedSocketOptions.TCP_KEEPIDLE, ExtendedSocketOptions.TCP_KEEPINTERVAL,
            ExtendedSocketOptions.TCP_KEEPCOUNT, ExtendedSocketOptions.TCP_QUICKACK,
            ExtendedSocketOptions.SO_INCOMING_NAPI_ID);

    /** Options of an {@link java.nio.channels.AsynchronousServerSocketChannel}. */
    static final Set<SocketOption<?>> SERVER = Set.of(
            StandardSocketOptions.SO_RCVBUF, StandardSocketOptions.SO_REUSEADDR, StandardSocketOptions.SO_REUSEPORT,
            ExtendedSocketOptions.TCP_KEEPIDLE, ExtendedSocketOptions.TCP_KEEPINTERVAL,
            ExtendedSocketOptions.TCP_KEEPCOUNT, ExtendedSocketOptions.TCP_QUICKACK,
            ExtendedSocketOptions.SO_INCOMING_NAPI_ID);

    private SocketOptionSets() {
    }

    /**
     * Checks {@code name} and {@code value} as the JDK's channels do before setting an option.
     *
     * @throws UnsupportedOperationException if {@code name} is not in {@code supported}
     * @throws IllegalArgumentException      if {@code value} is not of the option's type
     */
    static void checkSet(Set<SocketOption<?>> supported, SocketOption<?> name, Object value) {
        checkSupported(supported, name);
        if (value == null || !name.type().isInstance(value)) {
            throw new IllegalArgumentException("invalid value '" + value + "' for socket option " + name);
        }
    }

    /** @throws UnsupportedOperationException if {@code name} is not in {@code supported} */
    static void checkSupported(Set<SocketOption<?>> supported, SocketOption<?> name) {
        if (!supported.contains(java.util.Objects.requireNonNull(name, "name"))) {
            throw new UnsupportedOperationException("'" + name + "' not supported");
        }
    }
}
