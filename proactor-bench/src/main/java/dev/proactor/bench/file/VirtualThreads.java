package dev.proactor.bench.file;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Virtual threads for code compiled for Java 17: {@code Thread.ofVirtual().unstarted(r)} found with
 * {@link MethodHandles} at run time, so the benchmark jar runs on JDK 17 and its virtual-thread rows on JDK 21+.
 */
final class VirtualThreads {

    private static final MethodHandle UNSTARTED;

    static {
        MethodHandle h = null;
        try {
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            Class<?> builder = Class.forName("java.lang.Thread$Builder");
            Class<?> ofVirtual = Class.forName("java.lang.Thread$Builder$OfVirtual");
            MethodHandle factory = lookup.findStatic(Thread.class, "ofVirtual", MethodType.methodType(ofVirtual));
            MethodHandle build = lookup.findVirtual(builder, "unstarted",
                    MethodType.methodType(Thread.class, Runnable.class));
            h = MethodHandles.foldArguments(build, factory.asType(MethodType.methodType(builder)));
        } catch (ReflectiveOperationException e) {
            // before JDK 21
        }
        UNSTARTED = h;
    }

    private VirtualThreads() {
    }

    /** Whether this JVM has virtual threads. */
    static boolean available() {
        return UNSTARTED != null;
    }

    /**
     * A started virtual thread running {@code r}.
     *
     * @throws UnsupportedOperationException before JDK 21
     */
    static Thread start(Runnable r) {
        if (UNSTARTED == null) {
            throw new UnsupportedOperationException("virtual threads need JDK 21+, this is " + Runtime.version());
        }
        try {
            Thread t = (Thread) UNSTARTED.invokeExact(r);
            t.start();
            return t;
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }
}
