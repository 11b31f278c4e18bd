package dev.proactor.nio2;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.security.AccessControlContext;
import java.security.AccessController;
import java.security.PrivilegedAction;
import java.security.PrivilegedActionException;
import java.security.PrivilegedExceptionAction;

/**
 * The JDK's permission checks of the asynchronous socket channels, made where the JDK's provider makes them, and
 * the provider's own work run privileged, so that under a {@code SecurityManager} a program needs exactly the
 * permissions it needs on the JDK's provider:
 *
 * <ul>
 *   <li>{@code connect} calls {@code checkConnect(host, port)} on the caller's thread and throws its
 *       {@link SecurityException} at once;</li>
 *   <li>{@code accept} checks the peer with {@code checkAccept(host, port)} in the context of the thread that
 *       called {@code accept}, whichever thread completes it; a denied connection is closed and the accept fails
 *       with the {@link SecurityException};</li>
 *   <li>{@code getLocalAddress} hides an address the caller may not resolve ({@code checkConnect(host, -1)})
 *       behind the loopback address with the same port;</li>
 *   <li>binding is checked by the JDK channels the provider binds ({@code checkListen}).</li>
 * </ul>
 *
 * The engines make no permission checks of their own (the native ones cannot; the {@code nio} engine runs the JDK
 * calls that would privileged), and opening groups and channels (engine set-up, native library, properties,
 * threads) runs privileged: the provider's code base needs {@code AllPermission}, as the JDK's provider has.
 *
 * <p>Without a {@code SecurityManager} (always on Java 24 and later) every method returns at once or runs its
 * action directly: one read of {@link System#getSecurityManager()}, nothing allocated.
 *
 * <p>Thread-safe (stateless).
 */
@SuppressWarnings("removal") // the SecurityManager and AccessController are deprecated for removal since Java 17
final class SecurityChecks {

    private SecurityChecks() {
    }

    /** Work that may throw an {@link IOException}. */
    interface IoAction<T> {
        T run() throws IOException;
    }

    /** Runs {@code action} with the provider's own permissions (privileged) when a SecurityManager is installed. */
    static <T> T privileged(IoAction<T> action) throws IOException {
        if (System.getSecurityManager() == null) {
            return action.run();
        }
        try {
            return AccessController.doPrivileged((PrivilegedExceptionAction<T>) action::run);
        } catch (PrivilegedActionException e) {
            throw (IOException) e.getException(); // run() throws nothing else checked
        }
    }

    /** Runs {@code action}, which throws nothing checked, privileged when a SecurityManager is installed. */
    static void runPrivileged(Runnable action) {
        if (System.getSecurityManager() == null) {
            action.run();
            return;
        }
        AccessController.doPrivileged((PrivilegedAction<Void>) () -> {
            action.run();
            return null;
        });
    }

    /**
     * {@code task} to run with the permissions of the calling thread wherever it runs (a task given to a group's
     * {@code execute}, as the JDK runs it); {@code task} itself without a SecurityManager.
     */
    static Runnable inCallerContext(Runnable task) {
        if (System.getSecurityManager() == null) {
            return task;
        }
        AccessControlContext caller = AccessController.getContext();
        return () -> AccessController.doPrivileged((PrivilegedAction<Void>) () -> {
            task.run();
            return null;
        }, caller);
    }

    /**
     * Whether the caller may connect to {@code remote}, as the JDK's {@code connect} checks it.
     *
     * @throws SecurityException if a SecurityManager is installed and denies it
     */
    static void checkConnect(InetSocketAddress remote) {
        SecurityManager sm = System.getSecurityManager();
        if (sm != null) {
            sm.checkConnect(remote.getAddress().getHostAddress(), remote.getPort());
        }
    }

    /**
     * The calling thread's access control context, for {@link #checkAccept} when the accept completes: null
     * without a SecurityManager.
     */
    static Object callerContext() {
        return System.getSecurityManager() == null ? null : AccessController.getContext();
    }

    /**
     * Whether {@code context} (from {@link #callerContext()}; null: no check) may accept a connection from
     * {@code remote}.
     *
     * @throws SecurityException if it may not
     */
    static void checkAccept(Object context, SocketAddress remote) {
        SecurityManager sm = System.getSecurityManager();
        if (context == null || sm == null) {
            return;
        }
        InetSocketAddress peer = (InetSocketAddress) remote;
        AccessController.doPrivileged((PrivilegedAction<Void>) () -> {
            sm.checkAccept(peer.getAddress().getHostAddress(), peer.getPort());
            return null;
        }, (AccessControlContext) context);
    }

    /**
     * {@code local} as the caller may see it: itself, or the loopback address with its port if the caller may not
     * resolve its address (the JDK's rule for {@code getLocalAddress}).
     */
    static SocketAddress revealed(SocketAddress local) {
        SecurityManager sm = System.getSecurityManager();
        if (sm == null || !(local instanceof InetSocketAddress isa)) {
            return local;
        }
        try {
            sm.checkConnect(isa.getAddress().getHostAddress(), -1);
            return local;
        } catch (SecurityException hidden) {
            return new InetSocketAddress(InetAddress.getLoopbackAddress(), isa.getPort());
        }
    }
}
