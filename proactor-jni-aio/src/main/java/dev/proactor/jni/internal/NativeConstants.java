package dev.proactor.jni.internal;

import dev.proactor.jni.NativeLibrary;

/**
 * Fetches C constants (flags, errno values, struct sizes and offsets) by name, once, so Java never
 * hard-codes a value that belongs to the platform's headers.
 *
 * <p>Binding classes call it from their static initialisers; a missing name is a build inconsistency
 * and fails that initialisation loudly.
 */
public final class NativeConstants {

    static {
        NativeLibrary.ensureAvailability();
    }

    private NativeConstants() {
    }

    /**
     * The value of a 32-bit C constant; unsigned values above {@code Integer.MAX_VALUE} (e.g.
     * {@code EPOLLET}) keep their bit pattern.
     *
     * @throws IllegalStateException if the library defines no such constant or it does not fit 32 bits
     */
    public static int intValue(String name) {
        long value = LibraryNative.constant(name);
        if (value == LibraryNative.NO_SUCH_CONSTANT) {
            throw new IllegalStateException("the native library defines no constant " + name);
        }
        if (value < Integer.MIN_VALUE || value > 0xFFFF_FFFFL) {
            throw new IllegalStateException("native constant " + name + " = " + value + " does not fit 32 bits");
        }
        return (int) value;
    }
}
