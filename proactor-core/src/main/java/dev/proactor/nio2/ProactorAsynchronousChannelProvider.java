package dev.proactor.nio2;

import dev.proactor.ProactorConfig;
import java.io.IOException;
import java.nio.channels.AsynchronousChannelGroup;
import java.nio.channels.AsynchronousServerSocketChannel;
import java.nio.channels.AsynchronousSocketChannel;
import java.nio.channels.IllegalChannelGroupException;
import java.nio.channels.spi.AsynchronousChannelProvider;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The JDK's asynchronous socket channels ({@link AsynchronousSocketChannel},
 * {@link AsynchronousServerSocketChannel}, {@link AsynchronousChannelGroup}) on this project's demultiplexor and
 * engines. Switched on for a whole process, with no change to the program, by
 * {@code -Djava.nio.channels.spi.AsynchronousChannelProvider=dev.proactor.nio2.ProactorAsynchronousChannelProvider}
 * and the project's jars on the class path; the engine and its settings come from the {@code proactor.*}
 * properties ({@link ProactorConfig#fromSystemProperties()}). It is deliberately not registered as a service: a
 * jar on the class path never replaces the JDK's provider behind a program's back.
 *
 * <p>Each group is one demultiplexor (see {@link ProactorChannelGroup} for where handlers run). Channels opened
 * with a null group use the default group, made on first use: a cached thread pool as in the JDK, with the
 * thread factory named by {@code java.nio.channels.DefaultThreadPool.threadFactory} (daemon threads otherwise)
 * and {@code java.nio.channels.DefaultThreadPool.initialSize} dispatching tasks (the number of processors
 * otherwise). {@code proactor.threads} is not used: group sizes come from the NIO.2 calls.
 *
 * <p>Under a {@code SecurityManager} (Java 17 to 23) the channels make the JDK's permission checks and the
 * provider does its own work privileged ({@link SecurityChecks}); its jars then need {@code AllPermission}.
 *
 * <p>Thread-safe.
 */
public class ProactorAsynchronousChannelProvider extends AsynchronousChannelProvider {

    /** System property naming the default group's thread factory class (the JDK's). */
    public static final String DEFAULT_THREAD_FACTORY = "java.nio.channels.DefaultThreadPool.threadFactory";
    /** System property giving the default group's initial size (the JDK's). */
    public static final String DEFAULT_INITIAL_SIZE = "java.nio.channels.DefaultThreadPool.initialSize";

    private static final AtomicInteger DEFAULT_THREAD_IDS = new AtomicInteger();

    private final ProactorConfig config;
    /** Made on first use; guarded by this. */
    private ProactorChannelGroup defaultGroup;

    /** A provider configured by the {@code proactor.*} system properties (how the JDK instantiates it). */
    public ProactorAsynchronousChannelProvider() {
        this(ProactorConfig.fromSystemProperties());
    }

    /** A provider whose groups run with {@code config} (e.g. one provider per engine in one process). */
    public ProactorAsynchronousChannelProvider(ProactorConfig config) {
        this.config = Objects.requireNonNull(config, "config");
    }

    /** The configuration every group of this provider is opened with. */
    public ProactorConfig getConfig() {
        return config;
    }

    @Override
    public ProactorChannelGroup openAsynchronousChannelGroup(int nThreads, ThreadFactory threadFactory)
            throws IOException {
        if (nThreads <= 0) {
            throw new IllegalArgumentException("'nThreads' must be > 0");
        }
        Objects.requireNonNull(threadFactory, "threadFactory");
        return SecurityChecks.privileged(() -> ProactorChannelGroup.ofThreads(this, config, nThreads, threadFactory));
    }

    @Override
    public ProactorChannelGroup openAsynchronousChannelGroup(ExecutorService executor, int initialSize)
            throws IOException {
        Objects.requireNonNull(executor, "executor");
        return SecurityChecks.privileged(
                () -> ProactorChannelGroup.ofExecutor(this, config, executor, Math.max(0, initialSize), false));
    }

    @Override
    public AsynchronousServerSocketChannel openAsynchronousServerSocketChannel(AsynchronousChannelGroup group)
            throws IOException {
        return SecurityChecks.privileged(() -> new ProactorServerSocketChannel(this, groupOf(group)));
    }

    @Override
    public AsynchronousSocketChannel openAsynchronousSocketChannel(AsynchronousChannelGroup group)
            throws IOException {
        return SecurityChecks.privileged(() -> ProactorSocketChannel.open(this, groupOf(group)));
    }

    private ProactorChannelGroup groupOf(AsynchronousChannelGroup group) throws IOException {
        if (group == null) {
            return defaultGroup();
        }
        if (!(group instanceof ProactorChannelGroup g) || g.provider() != this) {
            throw new IllegalChannelGroupException();
        }
        return g;
    }

    /** The default group, made on first use (never shut down). */
    synchronized ProactorChannelGroup defaultGroup() throws IOException {
        if (defaultGroup == null) {
            ThreadFactory factory = defaultThreadFactory();
            ExecutorService pool = Executors.newCachedThreadPool(factory);
            defaultGroup = ProactorChannelGroup.ofExecutor(this, config, pool, defaultInitialSize(), true);
        }
        return defaultGroup;
    }

    /**
     * The default group's initial size: the property, or the number of processors when it is absent or negative.
     *
     * @throws Error if the property is not a number, as the JDK's provider does
     */
    private static int defaultInitialSize() {
        String v = System.getProperty(DEFAULT_INITIAL_SIZE);
        if (v != null) {
            int n;
            try {
                n = Integer.parseInt(v);
            } catch (NumberFormatException e) {
                throw new Error("Value of property '" + DEFAULT_INITIAL_SIZE + "' is invalid: " + e, e);
            }
            if (n >= 0) {
                return n;
            }
        }
        return Runtime.getRuntime().availableProcessors();
    }

    private static ThreadFactory defaultThreadFactory() {
        String className = System.getProperty(DEFAULT_THREAD_FACTORY);
        if (className != null) {
            try {
                Class<?> c = Class.forName(className, true, ClassLoader.getSystemClassLoader());
                return (ThreadFactory) c.getConstructor().newInstance();
            } catch (ReflectiveOperationException | ClassCastException e) {
                throw new Error("cannot make the default group's thread factory " + className, e);
            }
        }
        return r -> {
            Thread t = new Thread(r, "proactor-nio2-default-" + DEFAULT_THREAD_IDS.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    @Override
    public String toString() {
        return "ProactorAsynchronousChannelProvider[" + config.engine() + "]";
    }
}
