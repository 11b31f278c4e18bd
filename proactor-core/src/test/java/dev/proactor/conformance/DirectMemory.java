package dev.proactor.conformance;

import java.util.List;

/**
 * The JDK's direct buffer pool's memory in use ({@code BufferPoolMXBean "direct"}), for tests that check what
 * channels keep. By reflection: the tests compile inside the core's module, which does not read
 * {@code java.management}.
 */
final class DirectMemory {

    private DirectMemory() {
    }

    /** The bytes of direct buffers allocated and not yet freed, or -1 if the JVM does not say. */
    static long used() {
        try {
            Class<?> factory = Class.forName("java.lang.management.ManagementFactory");
            Class<?> pool = Class.forName("java.lang.management.BufferPoolMXBean");
            List<?> beans = (List<?>) factory.getMethod("getPlatformMXBeans", Class.class).invoke(null, pool);
            for (Object b : beans) {
                if ("direct".equals(pool.getMethod("getName").invoke(b))) {
                    return (Long) pool.getMethod("getMemoryUsed").invoke(b);
                }
            }
            return -1;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read the direct buffer pool", e);
        }
    }

    /**
     * {@link #used()} once buffers that are garbage were freed: collects and reads until two readings agree (a
     * wait for quiescence, bounded; nothing is timed).
     */
    static long settled() throws InterruptedException {
        long last = -1;
        for (int i = 0; i < 50; i++) {
            System.gc();
            Thread.sleep(20); // lets the reference handler run the cleaners of the collected buffers
            long used = used();
            if (used == last) {
                return used;
            }
            last = used;
        }
        return last;
    }
}
