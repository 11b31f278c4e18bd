package dev.proactor.testengine;

import dev.proactor.spi.Engine;
import dev.proactor.spi.EngineChannel;
import dev.proactor.spi.EngineProvider;
import dev.proactor.spi.EngineSettings;
import dev.proactor.spi.InterruptStrategy;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.OpKind;
import dev.proactor.spi.StartResult;
import dev.proactor.spi.WaitStrategy;
import java.net.SocketAddress;
import java.nio.channels.Channel;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An engine with no I/O at all, for testing the dispatcher alone: its leader sleeps until interrupted or timed
 * out. Registered only for proactor-core's own tests (the test-jar leaves the service file out).
 */
public final class ManualEngineProvider implements EngineProvider {

    public static final String NAME = "test-manual";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean isAvailable() {
        return true;
    }

    @Override
    public Throwable unavailabilityCause() {
        return null;
    }

    @Override
    public List<String> waitStrategies() {
        return List.of("semaphore");
    }

    /** The threads that ever waited in each engine made, by the name its settings gave it. */
    private static final Map<String, Set<Thread>> WAITERS = new ConcurrentHashMap<>();

    @Override
    public Engine create(EngineSettings settings) {
        return new ManualEngine(WAITERS.computeIfAbsent(settings.name(), n -> ConcurrentHashMap.newKeySet()),
                OFFLOADS.computeIfAbsent(settings.name(), n -> new AtomicInteger()));
    }

    /** The threads that waited in the engine named {@code engineName} (a demultiplexor's is its name + "-primary"). */
    public static Set<Thread> waiters(String engineName) {
        return WAITERS.getOrDefault(engineName, Set.of());
    }

    /** Offloaded work outstanding in each engine made, by the name its settings gave it. */
    private static final Map<String, AtomicInteger> OFFLOADS = new ConcurrentHashMap<>();

    /** The offloaded work the engine named {@code engineName} was told of and not told ended. */
    public static int offloads(String engineName) {
        AtomicInteger n = OFFLOADS.get(engineName);
        return n == null ? 0 : n.get();
    }

    private static final class ManualEngine implements Engine, WaitStrategy, InterruptStrategy {
        private final Semaphore wake = new Semaphore(0);
        private final Set<Thread> waiters;
        private final AtomicInteger offloads;

        ManualEngine(Set<Thread> waiters, AtomicInteger offloads) {
            this.waiters = waiters;
            this.offloads = offloads;
        }

        @Override
        public void offloadBegun() {
            offloads.incrementAndGet();
        }

        @Override
        public void offloadEnded() {
            offloads.decrementAndGet();
        }

        @Override
        public String name() {
            return NAME;
        }

        @Override
        public WaitStrategy waitStrategy() {
            return this;
        }

        @Override
        public boolean supports(OpKind kind) {
            return false;
        }

        @Override
        public boolean startInterruptsLeader() {
            return false;
        }

        @Override
        public EngineChannel register(Channel channel) {
            throw new IllegalArgumentException("the manual test engine has no channels");
        }

        @Override
        public EngineChannel openSocket(SocketAddress remoteHint) {
            throw new IllegalArgumentException("the manual test engine has no channels");
        }

        @Override
        public EngineChannel openServer(SocketAddress local, int backlog) {
            throw new IllegalArgumentException("the manual test engine has no channels");
        }

        @Override
        public EngineChannel adopt(Object acceptedHandle) {
            throw new IllegalArgumentException("the manual test engine has no channels");
        }

        @Override
        public void discard(Object acceptedHandle) {
        }

        @Override
        public StartResult start(IoRequest request) {
            throw new IllegalStateException("no operations");
        }

        @Override
        public boolean cancel(IoRequest request, Throwable reason) {
            return false;
        }

        @Override
        public void close() {
        }

        @Override
        public int waitFor(long timeoutNanos) throws java.io.IOException {
            waiters.add(Thread.currentThread());
            try {
                if (timeoutNanos < 0) {
                    wake.acquire();
                } else if (wake.tryAcquire(timeoutNanos, TimeUnit.NANOSECONDS)) {
                    wake.drainPermits();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            wake.drainPermits();
            return 0;
        }

        @Override
        public IoRequest nextCompleted() {
            return null;
        }

        @Override
        public InterruptStrategy interruptStrategy() {
            return this;
        }

        @Override
        public void interrupt() {
            wake.release();
        }
    }
}
