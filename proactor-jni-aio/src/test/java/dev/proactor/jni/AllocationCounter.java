package dev.proactor.jni;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.reflect.Method;

/**
 * The calling thread's allocated bytes, for tests that check a steady-state path allocates nothing: through the
 * HotSpot extension of the thread MX bean, by reflection, as the tests are compiled into a module that does not read
 * {@code java.management}.
 */
public final class AllocationCounter {

    private AllocationCounter() {
    }

    /** Bytes the calling thread has allocated so far. */
    public static long allocatedBytes() throws ReflectiveOperationException {
        Object bean = Class.forName("java.lang.management.ManagementFactory").getMethod("getThreadMXBean")
                .invoke(null);
        Method method = Class.forName("com.sun.management.ThreadMXBean").getMethod("getCurrentThreadAllocatedBytes");
        return (Long) method.invoke(bean);
    }

    /** Skips the calling test unless this JVM counts allocated bytes per thread. */
    public static void assumeAvailable() {
        try {
            allocatedBytes();
        } catch (ReflectiveOperationException | UnsupportedOperationException e) {
            assumeTrue(false, () -> "no allocation counter in this JVM: " + e);
        }
    }
}
