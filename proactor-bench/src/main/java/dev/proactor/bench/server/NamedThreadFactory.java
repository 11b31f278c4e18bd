package dev.proactor.bench.server;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Platform threads named {@code prefix-N}. */
public final class NamedThreadFactory implements ThreadFactory {
    private final String prefix;
    private final long stackSize;
    private final AtomicInteger next = new AtomicInteger();

    /**
     * Creates a factory with the default stack size.
     *
     * @param prefix thread name prefix
     */
    public NamedThreadFactory(String prefix) {
        this(prefix, 0);
    }

    /**
     * Creates a factory.
     *
     * @param prefix    thread name prefix
     * @param stackSize requested stack size in bytes (0 = JVM default)
     */
    public NamedThreadFactory(String prefix, long stackSize) {
        this.prefix = prefix;
        this.stackSize = stackSize;
    }

    @Override
    public Thread newThread(Runnable r) {
        return new Thread(null, r, prefix + "-" + next.getAndIncrement(), stackSize);
    }
}
