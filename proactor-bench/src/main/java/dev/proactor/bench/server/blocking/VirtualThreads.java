package dev.proactor.bench.server.blocking;

import dev.proactor.bench.server.PrerequisiteException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ThreadFactory;

/**
 * A virtual-thread factory obtained through method handles, so this module compiles for
 * Java 17 and still uses virtual threads when it runs on Java 21 or newer.
 */
public final class VirtualThreads {
    /** First Java feature release with final virtual threads. */
    public static final int MIN_FEATURE = 21;

    private VirtualThreads() {
    }

    /**
     * {@code Thread.ofVirtual().name("vthread-", 0).factory()}.
     *
     * @return the factory
     * @throws PrerequisiteException on a JVM older than 21
     */
    public static ThreadFactory factory() throws PrerequisiteException {
        int feature = Runtime.version().feature();
        if (feature < MIN_FEATURE) {
            throw new PrerequisiteException("virtual threads need Java " + MIN_FEATURE + "+, this JVM is "
                    + Runtime.version() + " (" + System.getProperty("java.home") + ")");
        }
        try {
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            Class<?> builder = Class.forName("java.lang.Thread$Builder");
            Class<?> ofVirtual = Class.forName("java.lang.Thread$Builder$OfVirtual");
            MethodHandle create = lookup.findStatic(Thread.class, "ofVirtual", MethodType.methodType(ofVirtual));
            MethodHandle name = lookup.findVirtual(builder, "name",
                    MethodType.methodType(builder, String.class, long.class));
            MethodHandle factory = lookup.findVirtual(builder, "factory", MethodType.methodType(ThreadFactory.class));
            Object b = create.invoke();
            Object named = name.invoke(b, "vthread-", 0L);
            return (ThreadFactory) factory.invoke(named);
        } catch (Throwable t) {
            throw new PrerequisiteException("cannot create a virtual thread factory on " + Runtime.version(), t);
        }
    }
}
