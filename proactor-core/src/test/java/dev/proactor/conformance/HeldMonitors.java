package dev.proactor.conformance;

/**
 * The monitors a platform thread holds ({@code ThreadMXBean.getThreadInfo(ids, true, false)}), for tests that check
 * a wait pins nothing. By reflection: the tests compile inside the core's module, which does not read
 * {@code java.management}.
 */
final class HeldMonitors {

    private HeldMonitors() {
    }

    /** What {@code t} holds, as the JVM describes each monitor ({@code MonitorInfo.toString}); empty for none. */
    static String[] of(Thread t) {
        try {
            Class<?> factory = Class.forName("java.lang.management.ManagementFactory");
            Class<?> mxBean = Class.forName("java.lang.management.ThreadMXBean");
            Class<?> threadInfo = Class.forName("java.lang.management.ThreadInfo");
            Object bean = factory.getMethod("getThreadMXBean").invoke(null);
            @SuppressWarnings("deprecation") // Thread.threadId() is JDK 19+; this compiles for 17
            long id = t.getId();
            Object[] infos = (Object[]) mxBean.getMethod("getThreadInfo", long[].class, boolean.class, boolean.class)
                    .invoke(bean, new long[] {id}, true, false);
            if (infos[0] == null) {
                return new String[0]; // the thread has ended
            }
            Object[] monitors = (Object[]) threadInfo.getMethod("getLockedMonitors").invoke(infos[0]);
            String[] names = new String[monitors.length];
            for (int i = 0; i < monitors.length; i++) {
                names[i] = String.valueOf(monitors[i]);
            }
            return names;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read the monitors a thread holds", e);
        }
    }
}
