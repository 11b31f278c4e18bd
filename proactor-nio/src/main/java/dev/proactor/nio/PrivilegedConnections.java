package dev.proactor.nio;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.security.AccessController;
import java.security.PrivilegedActionException;
import java.security.PrivilegedExceptionAction;

/**
 * The JDK calls that make a connection, run with the engine's own permissions under a {@code SecurityManager}.
 * The JDK's {@code accept} and {@code connect} check the calling thread's permissions, and here that thread is
 * whichever pool thread runs the request, with whatever access control context it inherited from the code that
 * made it, not the context of the code that started the operation. So the engine, like the native engines (which
 * make no checks), leaves permission checks of connections to the API above it: the NIO.2 provider checks each
 * accepted peer and each connect in the context of its caller, as the JDK's provider does. Datagram calls keep
 * the JDK's own checks.
 *
 * <p>Without a SecurityManager (always on Java 24 and later) each method is the plain JDK call.
 *
 * <p>Thread-safe (stateless).
 */
@SuppressWarnings("removal") // AccessController is deprecated for removal since Java 17
final class PrivilegedConnections {

    private PrivilegedConnections() {
    }

    /** {@link ServerSocketChannel#accept()}, privileged under a SecurityManager. */
    static SocketChannel accept(ServerSocketChannel listener) throws IOException {
        return System.getSecurityManager() == null ? listener.accept() : privileged(listener::accept);
    }

    /** {@link SocketChannel#connect(SocketAddress)}, privileged under a SecurityManager. */
    static boolean connect(SocketChannel channel, SocketAddress remote) throws IOException {
        return System.getSecurityManager() == null
                ? channel.connect(remote)
                : privileged(() -> channel.connect(remote));
    }

    private static <T> T privileged(PrivilegedExceptionAction<T> call) throws IOException {
        try {
            return AccessController.doPrivileged(call);
        } catch (PrivilegedActionException e) {
            throw (IOException) e.getException(); // the calls throw no other checked exception
        }
    }
}
