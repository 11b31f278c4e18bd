package dev.proactor.jni;

import dev.proactor.jni.internal.LibraryNative;
import dev.proactor.jni.internal.NativeLoader;
import dev.proactor.jni.internal.NativeRegistration;
import java.nio.file.Path;

/**
 * The proactor JNI library: finds, loads and verifies it, once per class loader.
 *
 * <p>The library travels inside the jar as
 * {@code META-INF/native/libproactor-jni-<arch>-<abiVersion>.so}. When the class path entry is a
 * directory (the build tree) it is loaded in place; from a jar it is copied to the work directory
 * ({@value #WORKDIR_PROPERTY}, default {@code java.io.tmpdir}) under a name unique to this process,
 * loaded, and deleted at once (the mapping outlives the file). After loading, the library must report
 * {@link #ABI_VERSION} and must have registered every {@code native} method the Java side declares;
 * otherwise it is unusable and {@link #unavailabilityCause()} says why.
 *
 * <p>Loading happens on the first call of any method here, from any thread; later calls, concurrent
 * or not, see the same outcome. Engines check their own availability on top of this one (see
 * {@link Epoll}).
 */
public final class NativeLibrary {

    /**
     * The native ABI this Java code speaks: the library's {@code proactor_abi_version()} must return it.
     * It is part of the library's file name, so the pom's {@code proactor.native.abiVersion} must equal it.
     */
    public static final int ABI_VERSION = 2;

    /** System property naming the directory the library is extracted to; it must allow executing files. */
    public static final String WORKDIR_PROPERTY = "proactor.native.workdir";

    private static final Object LOCK = new Object();

    /** Null until the first load attempt ends; never changes afterwards. */
    private static volatile Outcome outcome;

    /** The thread inside {@link #load()}, guarded by {@link #LOCK}; catches re-entry from static initialisers. */
    private static Thread loadingThread;

    private NativeLibrary() {
    }

    /**
     * Loads the library if no attempt was made yet. Idempotent and thread-safe.
     *
     * @return whether the library is loaded and verified
     */
    public static boolean isAvailable() {
        return outcome().cause == null;
    }

    /**
     * Loads the library if needed and throws if it is unusable.
     *
     * @throws UnsatisfiedLinkError with the reason as its cause when the library cannot be used
     */
    public static void ensureAvailability() {
        Throwable cause = outcome().cause;
        if (cause != null) {
            UnsatisfiedLinkError error = new UnsatisfiedLinkError(
                    "the proactor native library is unavailable: " + cause.getMessage());
            error.initCause(cause);
            throw error;
        }
    }

    /**
     * Loads the library if needed.
     *
     * @return why the library cannot be used, or {@code null} when it can
     */
    public static Throwable unavailabilityCause() {
        return outcome().cause;
    }

    /**
     * Loads the library if needed.
     *
     * @return the file the library was loaded from (an extracted copy is already deleted), or
     *     {@code null} when it is unavailable
     */
    public static Path loadedFrom() {
        return outcome().path;
    }

    /** The file name of the library for this machine's architecture, as packaged in the jar. */
    public static String fileName() {
        return NativeLoader.fileName(NativeLoader.architecture(System.getProperty("os.arch")), ABI_VERSION);
    }

    private static Outcome outcome() {
        Outcome current = outcome;
        if (current == null) {
            synchronized (LOCK) {
                current = outcome;
                if (current == null) {
                    if (loadingThread == Thread.currentThread()) {
                        // A binding's static initialiser ran during load(): a bug in the load order.
                        throw new IllegalStateException("the native library was used while it was being loaded");
                    }
                    loadingThread = Thread.currentThread();
                    try {
                        current = load();
                    } finally {
                        loadingThread = null;
                    }
                    outcome = current;
                }
            }
        }
        return current;
    }

    /** The one load attempt; every failure, including an Error from System.load, becomes the cause. */
    private static Outcome load() {
        Path path;
        try {
            path = NativeLoader.load(fileName());
        } catch (Exception | LinkageError e) {
            return new Outcome(null, e);
        }
        try {
            int nativeVersion = LibraryNative.abiVersion();
            if (nativeVersion != ABI_VERSION) {
                return new Outcome(null, new UnsatisfiedLinkError("ABI mismatch: " + path + " implements native ABI "
                        + nativeVersion + " but this proactor-jni-aio jar needs " + ABI_VERSION
                        + "; the library and the classes come from different builds"));
            }
            NativeRegistration.registerAll();
        } catch (LinkageError | IllegalStateException e) {
            return new Outcome(null, e);
        }
        return new Outcome(path, null);
    }

    /** Result of the single load attempt: a path, or a cause. */
    private static final class Outcome {
        final Path path;
        final Throwable cause;

        Outcome(Path path, Throwable cause) {
            this.path = path;
            this.cause = cause;
        }
    }
}
