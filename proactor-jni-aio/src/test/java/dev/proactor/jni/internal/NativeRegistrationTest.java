package dev.proactor.jni.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.jni.NativeTestSupport;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class NativeRegistrationTest {

    /** Declares a native that no C table registers. */
    static final class UnregisteredBinding {
        private UnregisteredBinding() {
        }

        static native int missing(long address, int[] values, String name);
    }

    @Test
    void loadedLibraryRegistersEveryJavaNative() {
        NativeTestSupport.assumeNativeLibrary();
        NativeRegistration.verify(LibraryNative.registeredMethods());
        Set<String> declared = NativeRegistration.declaredNatives(EpollNative.class);
        assertTrue(declared.contains("dev/proactor/jni/internal/EpollNative.epollWait(IJII)I"), declared::toString);
    }

    @Test
    void javaNativeWithoutCImplementationIsReported() {
        NativeTestSupport.assumeNativeLibrary();
        List<Class<?>> bindings = new ArrayList<>(NativeRegistration.BINDINGS);
        bindings.add(UnregisteredBinding.class);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> NativeRegistration.verify(LibraryNative.registeredMethods(), bindings));
        assertTrue(e.getMessage().contains(
                "dev/proactor/jni/internal/NativeRegistrationTest$UnregisteredBinding.missing(J[ILjava/lang/String;)I"),
                e.getMessage());
    }

    @Test
    void cTableForAnUnknownClassIsReported() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> NativeRegistration.verify(new String[] {"x/Unknown.f()V"}, List.of()));
        assertTrue(e.getMessage().contains("x/Unknown"), e.getMessage());
    }

    @Test
    void descriptorsFollowTheJniRules() throws Exception {
        assertEquals("(J[ILjava/lang/String;)I",
                NativeRegistration.descriptor(UnregisteredBinding.class.getDeclaredMethod("missing",
                        long.class, int[].class, String.class)));
    }
}
