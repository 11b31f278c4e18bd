package dev.proactor.internal;

import dev.proactor.DispatchStatistics;
import dev.proactor.LeaderMode;
import dev.proactor.ProactorConfig;
import dev.proactor.filepool.FilePoolEngine;
import dev.proactor.spi.Engine;
import dev.proactor.spi.EngineSettings;
import dev.proactor.spi.OpKind;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The machinery of one {@link dev.proactor.Demultiplexor}, which is its view and delegates to it: wires the
 * engines' processors, the dispatcher, the channel routing, the pool threads and the file engine, and keeps the
 * open/closed life cycle and the channels to close with it. The view's Javadoc states the contracts.
 *
 * <p>Thread-safety: every method may be called from any thread, also from inside a callback.
 */
public final class DemultiplexorCore {

    private static final AtomicInteger IDS = new AtomicInteger();

    private final ProactorConfig config;
    private final String name;
    private final Dispatcher dispatcher = new Dispatcher();
    private final Processor primary;
    /** The secondary processor running files, or null. */
    private final Processor files;
    private final Processor[] processors;
    /** Which processor serves which channel; opens and registers channels with its engine. */
    final ChannelRouting routing;
    /** The queue-wait and poll-gap histograms; null unless {@code proactor.dispatchStatistics} is on. */
    private final LatencyRecorder queueWait;
    private final LatencyRecorder pollGap;
    private final Set<ChannelCore> channels = ConcurrentHashMap.newKeySet();
    /** The threads {@link #start} made; guarded by lifecycle. */
    private final PoolThreads pool;
    /** The steps of {@link #close()} once it marked this closed. */
    private final DemultiplexorClosing closing;
    private final Object lifecycle = new Object();
    private volatile boolean closed;
    /** Work announced by {@link #beginOffload()} and not ended; only checks that ends match begins. */
    private final AtomicInteger offloads = new AtomicInteger();
    /** Guarded by lifecycle. */
    private Throwable closeCause;

    /**
     * Opens the engines chosen by {@code config} and wires them; no thread started but a dedicated leader.
     *
     * @throws IOException if an engine cannot be opened
     */
    public DemultiplexorCore(ProactorConfig config) throws IOException {
        this.config = config;
        this.name = "proactor-" + IDS.incrementAndGet();
        EngineSelector.Choice choice = EngineSelector.choose(config);
        Engine engine = choice.provider().create(new EngineSettings(choice.waitStrategy(), name + "-primary",
                dispatcher::isOwnThread, config.leader() == LeaderMode.OWNER));
        Engine fileEngine = null;
        try {
            this.primary = new Processor(name + "-primary", engine, dispatcher, config.leader(), config.maxInFlight());
            fileEngine = createFileEngine(config, engine, name + "-files");
            this.files = fileEngine == null ? null : new Processor(name + "-files", fileEngine, dispatcher,
                    LeaderMode.DEDICATED, config.maxInFlight());
            this.processors = files == null ? new Processor[] {primary} : new Processor[] {primary, files};
            this.routing = new ChannelRouting(this, processors, name + "-files-leader");
            dispatcher.setProcessors(processors);
            if (config.promptHandlers()) {
                for (Processor p : processors) {
                    p.keepTurnsWhileDispatching();
                }
            }
            this.queueWait = config.dispatchStatistics() ? new LatencyRecorder() : null;
            this.pollGap = config.dispatchStatistics() ? new LatencyRecorder() : null;
            if (queueWait != null) {
                dispatcher.recordQueueWait(queueWait);
                primary.recordPollGap(pollGap); // the socket engine: where fairness matters
            }
            this.pool = new PoolThreads(this, name, dispatcher, processors);
            this.closing = new DemultiplexorClosing(name, dispatcher, processors, channels);
            primary.startDedicatedLeader(name + "-leader");
        } catch (RuntimeException | Error e) {
            // Nothing else will ever close the engines made so far (their descriptors, rings, threads).
            closeAfterFailure(engine, e);
            closeAfterFailure(fileEngine, e);
            throw e;
        }
    }

    /** Closes {@code engine} (if any) of a demultiplexor that failed to open; its failure goes with {@code cause}. */
    private static void closeAfterFailure(Engine engine, Throwable cause) {
        if (engine == null) {
            return;
        }
        try {
            engine.close();
        } catch (IOException | RuntimeException e) {
            cause.addSuppressed(e);
        }
    }

    /** The secondary engine for files, or null when the primary runs files itself or files are configured off. */
    private static Engine createFileEngine(ProactorConfig config, Engine primary, String name) {
        if (primary.supports(OpKind.READ_FILE) && primary.supports(OpKind.WRITE_FILE)) {
            return null;
        }
        if (config.fileEngine().equals(ProactorConfig.FILE_ENGINE_THREADPOOL)) {
            return new FilePoolEngine(name, config.fileThreads());
        }
        return null; // FILE_ENGINE_NONE
    }

    /**
     * Starts {@code threads} more pool threads made by {@code factory} (a null factory makes daemon threads named
     * {@code proactor-N-M}); they run {@link #handleEvents} until {@link #close()}, so callbacks run on them. The
     * factory decides name, daemon status and uncaught-exception handler; a callback's exception never reaches
     * the latter (it closes its channel, see {@link AsynchHandler}).
     *
     * @throws IllegalArgumentException if {@code threads < 1}
     * @throws IllegalStateException    if closed, or if the factory returns null (no thread of this call is
     *                                  started then: all are made before any starts)
     */
    public void start(int threads, ThreadFactory factory) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be positive: " + threads);
        }
        synchronized (lifecycle) {
            checkOpen();
            pool.start(threads, factory);
        }
    }

    /**
     * Lends the calling thread to the proactor: dispatches completions, leads or waits as a follower, until at
     * least one completion was dispatched and none is queued, or {@code timeout} elapses, or the demultiplexor
     * closes. When the timeout has run out without any completion, the I/O is polled once without blocking (if
     * no other thread is polling it), so {@code handleEvents(0, unit)} collects and dispatches what is ready
     * without ever blocking.
     *
     * <p>If the calling thread is interrupted (before or during the call) it returns early, with its interrupt
     * status still set. An {@link Error} from the framework itself (not from a callback: those stay with their
     * channel) closes the demultiplexor, see {@link #getCloseCause()}, and is rethrown.
     *
     * <p>In owner mode ({@link LeaderMode#OWNER}) the calling thread never polls the engine: it dispatches what
     * the owner, a pool thread, queued, and waits for it otherwise.
     *
     * @param timeout longest time to wait; negative waits without limit
     * @return the number of completions dispatched
     * @throws IllegalStateException in owner mode, if no pool thread was started (nobody would ever poll)
     */
    public int handleEvents(long timeout, TimeUnit unit) {
        if (config.leader() == LeaderMode.OWNER) {
            synchronized (lifecycle) {
                if (pool.isEmpty() && !closed) {
                    throw new IllegalStateException(name + " runs in owner mode (" + ProactorConfig.LEADER
                            + "=owner): only its own pool thread polls the engine; start() it first");
                }
            }
        }
        try {
            return dispatcher.handleEvents(timeout < 0 ? -1 : unit.toNanos(timeout));
        } catch (Error e) {
            closeOnFatal(e);
            throw e;
        } finally {
            closing.finishDeferred(); // a callback of this call closed the demultiplexor: see close()
        }
    }

    /**
     * Announces handler work that a thread of this demultiplexor hands to another executor (a completion run as an
     * executor task); call {@link #endOffload()} exactly once when that work ends, whether it ran or was dropped.
     * Operations such work starts on the executor's threads are handed to the leader; on {@code io_uring} a leader
     * blocked in the kernel is then woken once when the last outstanding work ends, instead of once per operation
     * (and within 1 ms at the latest, so work that blocks or never ends delays nobody for longer). Engines whose
     * foreign threads start their operations themselves ignore it. Any thread; allocation-free.
     */
    public void beginOffload() {
        offloads.incrementAndGet();
        for (Processor p : processors) {
            p.engine().offloadBegun();
        }
    }

    /**
     * Ends work announced by {@link #beginOffload()}. Any thread.
     *
     * @throws IllegalStateException if no announced work is outstanding
     */
    public void endOffload() {
        if (offloads.getAndUpdate(n -> n > 0 ? n - 1 : n) == 0) {
            throw new IllegalStateException(name + ": endOffload() without a matching beginOffload()");
        }
        for (Processor p : processors) {
            p.engine().offloadEnded();
        }
    }

    /**
     * An {@link Error} escaped the dispatch machinery (an engine's wait, or the framework itself; never a
     * callback's): the pool cannot be trusted any more, so the demultiplexor closes loudly with it as cause. Called
     * by the thread that caught it (a pool thread, or a user thread in {@link #handleEvents}), without any lock.
     */
    void closeOnFatal(Error e) {
        synchronized (lifecycle) {
            if (closeCause == null && !closed) {
                closeCause = e;
            }
        }
        Dispatcher.LOG.error("{}: fatal error in a demultiplexor thread; closing the demultiplexor", name, e);
        try {
            close();
        } catch (RuntimeException | Error closeFailure) {
            e.addSuppressed(closeFailure);
        }
    }

    /**
     * The fatal error that closed this demultiplexor (see {@link #handleEvents}), or null if it is open or was
     * closed by {@link #close()}.
     */
    public Throwable getCloseCause() {
        synchronized (lifecycle) {
            return closeCause;
        }
    }

    /** The queue-wait recorder ({@link DispatchStatistics#queueWait()}), or null when statistics are off. */
    public LatencyRecorder queueWaitRecorder() {
        return queueWait;
    }

    /** The poll-gap recorder ({@link DispatchStatistics#pollGap()}), or null when statistics are off. */
    public LatencyRecorder pollGapRecorder() {
        return pollGap;
    }

    /** The configuration this demultiplexor was opened with. */
    public ProactorConfig getConfig() {
        return config;
    }

    /** Name of the engine actually running (after any fallback). */
    public String getEngineName() {
        return primary.engine().name();
    }

    /** Name of the wait strategy actually running. */
    public String getWaitStrategyName() {
        return primary.engine().waitStrategy().name();
    }

    /**
     * Name of the engine that runs file operations: the primary engine if it supports them, else the
     * configured file engine ({@code threadpool}), or {@code null} when files are not supported.
     */
    public String getFileEngineName() {
        Processor p = routing.processorFor(OpKind.READ_FILE);
        return p == null ? null : p.engine().name();
    }

    /** Number of pool threads started. */
    public int getPoolSize() {
        synchronized (lifecycle) {
            return pool.size();
        }
    }

    /**
     * Number of pool threads started by {@link #start} that are still alive (a health check: it stays at the
     * configured size until {@link #close()}).
     */
    public int getLivePoolThreads() {
        synchronized (lifecycle) {
            return pool.alive();
        }
    }

    public boolean isClosed() {
        return closed;
    }

    // ---------------------------------------------------------------- package API: dispatcher, channels, open state

    /** The dispatcher: completion queue, timers, leader/followers. */
    public Dispatcher dispatcher() {
        return dispatcher;
    }

    void track(ChannelCore ch) {
        channels.add(ch);
        if (closed) {
            ch.close(); // raced with close(): do not leave it open
        }
    }

    void untrack(ChannelCore ch) {
        channels.remove(ch);
    }

    /** Throws {@link IllegalStateException} if closed. */
    void checkOpen() {
        if (closed) {
            throw new IllegalStateException("demultiplexor is closed");
        }
    }

    /**
     * Runs {@code action} under the life-cycle lock if not closed, so {@link #close()} either comes after it and
     * undoes it (stops a leader thread it started) or came before it and it does not run.
     *
     * @throws IllegalStateException if closed
     */
    void whileOpen(Runnable action) {
        synchronized (lifecycle) {
            checkOpen();
            action.run();
        }
    }

    // ---------------------------------------------------------------- close

    /**
     * Closes the demultiplexor (see {@link dev.proactor.Demultiplexor#close()}): scheduled timers are dropped (none
     * fires from now on, not even one already due),
     * while completions {@link #post posted} before the close are dispatched once like I/O completions (a layer
     * such as TLS delivers its completions that way); every channel is closed, so
     * its pending operations complete with an error and are dispatched, in order per direction (file operations
     * already running on a worker are waited for and dispatched with their result); the pool and dedicated
     * threads stop, a user thread still waiting in the engine is interrupted and waited for; then the engines are
     * released. An operation started after this completes with {@link java.nio.channels.ClosedChannelException}: at
     * once, dispatched by the thread that started it; or, when a callback of the same direction is still running
     * (on this thread or another), right after that callback, by the thread that ran it. Idempotent (a call while
     * another is closing returns at once).
     *
     * <p>From a callback running in this demultiplexor's loop (a pool thread, or a thread in {@link #handleEvents})
     * it waits for nothing: it drops the timers, closes the channels and stops the threads, and the calling thread
     * does the rest (waits for the other threads, dispatches what is left, releases the engines) when its loop ends,
     * after the callback has returned. So a callback may close while it holds what another callback waits for (a
     * lock of the service, the end of the callback itself). From any other thread it returns when all is done: it
     * waits for the callbacks running, so call it holding nothing a callback may wait for.
     */
    public void close() {
        List<Thread> threads;
        synchronized (lifecycle) {
            if (closed) {
                return;
            }
            closed = true;
            threads = pool.copy();
        }
        if (dispatcher.isDispatcherThread()) {
            closing.closeWithoutWaiting(threads); // finished by this thread once its loop ends
        } else {
            closing.close(threads);
        }
    }

    /** Finishes a close a callback on this pool thread began ({@link #close()}); the thread has left its loop. */
    void finishDeferredClose() {
        closing.finishDeferred();
    }

    @Override
    public String toString() {
        return name + "[" + getEngineName() + "/" + getWaitStrategyName() + ", " + config.leader().configName()
                + (files == null ? "" : ", files=" + files.engine().name()) + "]";
    }
}
