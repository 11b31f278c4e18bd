package dev.proactor.conformance;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The threads a file-channel contract test calls the channel from: platform threads, or virtual threads when
 * {@value #PROPERTY}{@code =virtual} (the forked JDK 21+ run of {@link VirtualThreadFork}). The code is compiled for
 * Java 17, so virtual threads are made through {@code Thread.ofVirtual()} found with {@link MethodHandles} at run
 * time.
 */
public final class Callers {

    /** System property choosing the caller threads: {@code platform} (default) or {@code virtual}. */
    public static final String PROPERTY = "proactor.test.callerThreads";

    private static final MethodHandle UNSTARTED_VIRTUAL;
    private static final MethodHandle IS_VIRTUAL;

    static {
        MethodHandle unstarted = null;
        MethodHandle isVirtual = null;
        try {
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            Class<?> builder = Class.forName("java.lang.Thread$Builder");
            Class<?> ofVirtual = Class.forName("java.lang.Thread$Builder$OfVirtual");
            MethodHandle factory = lookup.findStatic(Thread.class, "ofVirtual", MethodType.methodType(ofVirtual));
            MethodHandle build = lookup.findVirtual(builder, "unstarted",
                    MethodType.methodType(Thread.class, Runnable.class));
            // (Builder, Runnable) -> Thread with the builder made by Thread.ofVirtual(): (Runnable) -> Thread
            unstarted = MethodHandles.foldArguments(build, factory.asType(MethodType.methodType(builder)));
            isVirtual = lookup.findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
        } catch (ReflectiveOperationException e) {
            // JDK 17-20: no virtual threads
        }
        UNSTARTED_VIRTUAL = unstarted;
        IS_VIRTUAL = isVirtual;
    }

    private Callers() {
    }

    /** Whether this JVM has virtual threads (JDK 21+). */
    public static boolean virtualThreadsAvailable() {
        return UNSTARTED_VIRTUAL != null;
    }

    /** Whether the tests call from virtual threads ({@value #PROPERTY}{@code =virtual}). */
    public static boolean virtual() {
        return "virtual".equals(System.getProperty(PROPERTY));
    }

    /** A name for test reports: {@code platform} or {@code virtual}. */
    public static String kind() {
        return virtual() ? "virtual" : "platform";
    }

    /** A started virtual thread running {@code r}; JDK 21+ only. */
    public static Thread startVirtual(Runnable r) {
        if (UNSTARTED_VIRTUAL == null) {
            throw new UnsupportedOperationException("no virtual threads before JDK 21, this is "
                    + Runtime.version());
        }
        try {
            Thread t = (Thread) UNSTARTED_VIRTUAL.invokeExact(r);
            t.start();
            return t;
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** Whether {@code t} is a virtual thread (false before JDK 21). */
    public static boolean isVirtual(Thread t) {
        if (IS_VIRTUAL == null) {
            return false;
        }
        try {
            return (boolean) IS_VIRTUAL.invokeExact(t);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** A started caller thread (platform or virtual, as configured) running {@code r}. */
    public static Thread start(Runnable r) {
        if (virtual()) {
            return startVirtual(r);
        }
        Thread t = new Thread(r, "caller");
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** A test body run on a caller thread. */
    public interface Body {
        void run() throws Exception;
    }

    /**
     * Runs {@code body} on a new caller thread and waits for it (a hang guard, not a timing), rethrowing what it
     * threw.
     */
    public static void call(Body body) throws Exception {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        Thread t = start(() -> {
            try {
                assertTrue(isVirtual(Thread.currentThread()) == virtual(), "caller thread of the wrong kind");
                body.run();
            } catch (Throwable e) {
                failure.set(e);
            } finally {
                done.countDown();
            }
        });
        if (!done.await(Outcome.GUARD_SECONDS, TimeUnit.SECONDS)) {
            AssertionError hang = new AssertionError("hang guard: the caller thread never finished");
            StackTraceElement[] stack = t.getStackTrace();
            Throwable where = new Throwable("caller thread stack");
            where.setStackTrace(stack);
            hang.addSuppressed(where);
            throw hang;
        }
        Throwable e = failure.get();
        if (e instanceof Exception x) {
            throw x;
        }
        if (e instanceof Error x) {
            throw x;
        }
    }
}
