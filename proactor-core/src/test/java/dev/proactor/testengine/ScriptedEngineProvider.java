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
import java.nio.channels.ClosedChannelException;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * An engine whose I/O the test performs by hand, to drive the dispatcher, the processor and the channel
 * directions through exact interleavings without sockets: requests park at start (or complete, or are deferred,
 * as {@link ScriptedEngine#startPolicy} says), the test completes parked requests with
 * {@link ScriptedEngine#complete}, and the completions come out of the leader's next wait. Hooks let a test act
 * at the exact point inside {@code start} or {@code waitFor}. Registered only for proactor-core's own tests.
 */
public final class ScriptedEngineProvider implements EngineProvider {

    public static final String NAME = "test-scripted";

    private static final AtomicReference<ScriptedEngine> LAST = new AtomicReference<>();

    /**
     * Thrown (once) by the next engine's {@code startInterruptsLeader()}, which the demultiplexor asks while it is
     * being built: a failure after the engine exists.
     */
    public static final AtomicReference<RuntimeException> FAIL_NEXT_SETUP = new AtomicReference<>();

    /** The engine created last (tests run one demultiplexor at a time). */
    public static ScriptedEngine last() {
        return LAST.get();
    }

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

    @Override
    public Engine create(EngineSettings settings) {
        ScriptedEngine e = new ScriptedEngine();
        LAST.set(e);
        return e;
    }

    /** The channel of the scripted engine: one parked request per direction. */
    public static final class ScriptedChannel implements EngineChannel {
        IoRequest input;
        IoRequest output;
        boolean closed;

        @Override
        public SocketAddress localAddress() {
            return null;
        }

        @Override
        public SocketAddress remoteAddress() {
            return null;
        }

        @Override
        public void shutdownOutput() {
        }

        @Override
        public synchronized void close() {
            closed = true;
        }

        @Override
        public synchronized boolean isClosed() {
            return closed;
        }

        /** The parked request of a direction, or null. */
        public synchronized IoRequest parked(boolean inputSide) {
            return inputSide ? input : output;
        }
    }

    /** See {@link ScriptedEngineProvider}. All methods are thread-safe. */
    public static final class ScriptedEngine implements Engine, WaitStrategy, InterruptStrategy {

        private static final int SUPPORTED = OpKind.STREAM_MASK | OpKind.DATAGRAM_MASK;

        private final Semaphore wake = new Semaphore(0);
        private final ConcurrentLinkedQueue<IoRequest> done = new ConcurrentLinkedQueue<>();
        /** Results handed out by the last wait; leader only. */
        private final ArrayDeque<IoRequest> collected = new ArrayDeque<>();

        /** What {@link #start} does with a request (after the hook): default parks it. */
        public volatile Function<IoRequest, StartResult> startPolicy = r -> StartResult.PENDING;
        /** Runs first in {@link #start}, on the starting thread. */
        public volatile java.util.function.Consumer<IoRequest> startHook = r -> { };
        /** Runs after a request was parked in {@link #start}, before it returns (may throw). */
        public volatile java.util.function.Consumer<IoRequest> afterParkHook = r -> { };
        /** If set, the next {@link #waitFor} throws it (once). */
        public final AtomicReference<Throwable> failNextWait = new AtomicReference<>();
        /** Thrown (once) by the next {@link #cancel}, before it looks at the request: an engine bug. */
        public final AtomicReference<RuntimeException> failNextCancel = new AtomicReference<>();
        /**
         * Runs first in {@link #cancel}, on the cancelling thread, before it looks at the request: the point where a
         * cancelling thread that lost the processor resumes.
         */
        public volatile java.util.function.Consumer<IoRequest> cancelHook = r -> { };

        public final AtomicInteger waits = new AtomicInteger();
        public final AtomicInteger waitersInside = new AtomicInteger();
        /** Set if a thread entered {@link #waitFor} with its interrupt status set. */
        public final AtomicBoolean waitedInterrupted = new AtomicBoolean();
        /** Set if {@link #close()} ran while a thread was inside {@link #waitFor}. */
        public final AtomicBoolean closedUnderAWaiter = new AtomicBoolean();
        /** Released each time a thread enters {@link #waitFor}. */
        public final Semaphore waitEntered = new Semaphore(0);
        private volatile boolean closed;

        /** Completes the request parked in {@code ch}'s direction with {@code bytes}; false if none is parked. */
        public boolean complete(ScriptedChannel ch, boolean inputSide, long bytes) {
            IoRequest r;
            synchronized (ch) {
                r = inputSide ? ch.input : ch.output;
                if (r == null) {
                    return false;
                }
                if (inputSide) {
                    ch.input = null;
                } else {
                    ch.output = null;
                }
            }
            r.complete(bytes);
            done.add(r);
            interrupt();
            return true;
        }

        public boolean isClosed() {
            return closed;
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
            return (SUPPORTED & kind.bit()) != 0;
        }

        @Override
        public boolean startInterruptsLeader() {
            RuntimeException failure = FAIL_NEXT_SETUP.getAndSet(null);
            if (failure != null) {
                throw failure;
            }
            return false;
        }

        @Override
        public EngineChannel register(Channel channel) {
            throw new IllegalArgumentException("the scripted engine opens its own channels");
        }

        @Override
        public EngineChannel openSocket(SocketAddress remoteHint) {
            return new ScriptedChannel();
        }

        /** The listening channel opened last. */
        public volatile ScriptedChannel lastServer;

        @Override
        public EngineChannel openServer(SocketAddress local, int backlog) {
            ScriptedChannel server = new ScriptedChannel();
            lastServer = server;
            return server;
        }

        /** Completes the accept parked on {@code server} with a new connection; false if none is parked. */
        public boolean completeAccept(ScriptedChannel server) {
            IoRequest r;
            synchronized (server) {
                r = server.input;
                server.input = null;
            }
            if (r == null) {
                return false;
            }
            r.completeAccept(new Object(), new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(),
                    40000));
            done.add(r);
            interrupt();
            return true;
        }

        @Override
        public EngineChannel openDatagram(SocketAddress local) {
            return new ScriptedChannel();
        }

        @Override
        public EngineChannel adopt(Object acceptedHandle) {
            return new ScriptedChannel();
        }

        @Override
        public void discard(Object acceptedHandle) {
        }

        @Override
        public StartResult start(IoRequest request) {
            startHook.accept(request);
            ScriptedChannel ch = (ScriptedChannel) request.channel();
            StartResult result;
            synchronized (ch) {
                if (ch.closed) {
                    request.fail(new ClosedChannelException());
                    return StartResult.COMPLETED;
                }
                result = startPolicy.apply(request);
                if (result == StartResult.PENDING) {
                    boolean input = request.kind().isInput();
                    if ((input ? ch.input : ch.output) != null) {
                        throw new AssertionError("two requests of one direction in the engine");
                    }
                    if (input) {
                        ch.input = request;
                    } else {
                        ch.output = request;
                    }
                }
            }
            if (result == StartResult.PENDING) {
                afterParkHook.accept(request);
            }
            return result;
        }

        @Override
        public boolean cancel(IoRequest request, Throwable reason) {
            cancelHook.accept(request);
            RuntimeException failure = failNextCancel.getAndSet(null);
            if (failure != null) {
                throw failure;
            }
            ScriptedChannel ch = (ScriptedChannel) request.channel();
            if (ch == null) {
                return false;
            }
            synchronized (ch) {
                if (ch.input == request) {
                    ch.input = null;
                } else if (ch.output == request) {
                    ch.output = null;
                } else {
                    return false;
                }
            }
            request.fail(reason);
            return true;
        }

        /** Set if {@link #quiesce()} (which reaps, in real engines) ran while a thread waited in this engine. */
        public final AtomicBoolean quiescedUnderAWaiter = new AtomicBoolean();

        @Override
        public void quiesce() {
            if (waitersInside.get() > 0) {
                quiescedUnderAWaiter.set(true);
            }
        }

        @Override
        public void close() {
            if (waitersInside.get() > 0) {
                closedUnderAWaiter.set(true);
            }
            closed = true;
        }

        @Override
        public int waitFor(long timeoutNanos) {
            waitersInside.incrementAndGet();
            try {
                waits.incrementAndGet();
                if (Thread.currentThread().isInterrupted()) {
                    waitedInterrupted.set(true);
                }
                waitEntered.release();
                Throwable failure = failNextWait.getAndSet(null);
                if (failure instanceof RuntimeException re) {
                    throw re;
                }
                if (failure instanceof Error err) {
                    throw err;
                }
                try {
                    if (timeoutNanos < 0) {
                        wake.acquire();
                    } else if (timeoutNanos > 0) {
                        wake.tryAcquire(timeoutNanos, TimeUnit.NANOSECONDS);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt(); // like a selector: returns, status kept
                }
                wake.drainPermits();
                for (IoRequest r = done.poll(); r != null; r = done.poll()) {
                    collected.add(r);
                }
                return collected.size();
            } finally {
                waitersInside.decrementAndGet();
            }
        }

        /** The threads that called {@link #leaderAway()}, in call order. */
        public final List<Thread> leaderAways = new java.util.concurrent.CopyOnWriteArrayList<>();

        @Override
        public void leaderAway() {
            leaderAways.add(Thread.currentThread());
        }

        @Override
        public IoRequest nextCompleted() {
            return collected.poll();
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
