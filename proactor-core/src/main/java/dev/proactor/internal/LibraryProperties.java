package dev.proactor.internal;

import java.security.AccessController;
import java.security.PrivilegedAction;

/**
 * Reads the {@code proactor.*} system properties that classes read once, when they are initialised. A class is
 * initialised on whichever thread first uses it, under a {@code SecurityManager} perhaps with a program's frames
 * on the stack that may not read properties; the library's own settings are read with the library's permissions
 * (privileged), as the JDK reads its own.
 *
 * <p>Thread-safe (stateless).
 */
final class LibraryProperties {

    private LibraryProperties() {
    }

    /** The system property {@code name}, or {@code fallback} if it is not set. */
    @SuppressWarnings("removal") // AccessController is deprecated for removal since Java 17; harmless where absent
    static String get(String name, String fallback) {
        PrivilegedAction<String> read = () -> System.getProperty(name, fallback);
        return System.getSecurityManager() == null ? read.run() : AccessController.doPrivileged(read);
    }
}
