package dev.proactor.jni.internal;

/**
 * Natives of {@code library.c}: what the loaded library is, and registration of the other bindings.
 *
 * <p>The only class {@code JNI_OnLoad} registers itself. Deliberately without static initialisation:
 * JNI's {@code FindClass} initialises the class while {@link System#load(String)} is still running.
 */
public final class LibraryNative {

    /** What {@link #constant(String)} returns for a name no C file defines. */
    public static final long NO_SUCH_CONSTANT = Long.MIN_VALUE;

    private LibraryNative() {
    }

    /** The ABI version the library was compiled for ({@code proactor_abi_version()} in C). */
    public static native int abiVersion();

    /**
     * Registers the natives of the C module written for {@code internalName} on {@code target}.
     * Passing the class object, rather than letting C find it, keeps its static initialiser from
     * running before the library is verified.
     *
     * @return 0, or {@code -ENOENT} when no C module has that name
     * @throws NoSuchMethodError if a C entry has no Java counterpart (name or signature differ)
     */
    static native int registerModule(String internalName, Class<?> target);

    /** Every registered native as {@code "pkg/Class.name(descriptor)"}, for {@link NativeRegistration}. */
    public static native String[] registeredMethods();

    /** The value of a named C constant, or {@link #NO_SUCH_CONSTANT}. Use {@link NativeConstants}. */
    static native long constant(String name);
}
