package dev.proactor;

import dev.proactor.internal.DemultiplexorCore;
import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * The proactor: runs the engine chosen by configuration and dispatches completed operations to handlers with
 * a leader/follower thread pool (its own, started by {@link #start()}, and/or user threads calling
 * {@link #handleEvents(long, TimeUnit)}).
 *
 * <pre>{@code
 * try (Demultiplexor demux = Demultiplexor.open().start()) {   // engine etc. from system properties
 *     AsynchChannel server = AsynchChannel.openServer(demux, acceptor, new InetSocketAddress(7000), 0);
 *     server.accept();
 *     ...
 * }
 * }</pre>
 *
 * <p>Processors (seed §7.3): the primary processor runs the configured engine. When that engine does not run
 * file operations and {@code proactor.fileEngine} is {@code threadpool}, a secondary processor runs them on the
 * built-in file engine, in dedicated leader mode (its own leader thread queues file completions, so no pool
 * thread has to lead it); its threads start with the first file opened. Each channel is routed to the first
 * processor whose engine supports its operations.
 *
 * <p>Thread-safety: every method may be called from any thread, also from inside a callback.
 */
public final class Demultiplexor implements AutoCloseable {

    /** The machinery: processors, dispatcher, routing, pool, life cycle. */
    final DemultiplexorCore core;
    /** Null unless {@code proactor.dispatchStatistics} is on. */
    private final DispatchStatistics statistics;
    private final DispatchTotals totals;

    private Demultiplexor(ProactorConfig config) throws IOException {
        this.core = new DemultiplexorCore(config);
        this.statistics = core.queueWaitRecorder() == null ? null
                : new DispatchStatistics(core.queueWaitRecorder(), core.pollGapRecorder());
        this.totals = new DispatchTotals(core.dispatcher().totals());
    }

    /** Opens a demultiplexor configured by the system properties (see {@link ProactorConfig}); not started. */
    public static Demultiplexor open() throws IOException {
        return open(ProactorConfig.fromSystemProperties());
    }

    /**
     * Opens a demultiplexor with {@code config}; its threads are not started.
     *
     * @throws IllegalArgumentException if the engine or wait strategy is unknown
     * @throws IllegalStateException    if the engine is unavailable and the configuration is strict
     * @throws IOException              if the engine cannot be created
     */
    public static Demultiplexor open(ProactorConfig config) throws IOException {
        return new Demultiplexor(Objects.requireNonNull(config, "config"));
    }

    /** Starts {@link ProactorConfig#threads()} pool threads. */
    public Demultiplexor start() {
        return start(core.getConfig().threads());
    }

    /**
     * Starts {@code threads} more pool threads (daemon threads named {@code proactor-N-M}) that run
     * {@link #handleEvents} until {@link #close()}.
     *
     * @throws IllegalArgumentException if {@code threads < 1}
     * @throws IllegalStateException    if closed
     */
    public Demultiplexor start(int threads) {
        return start(threads, null);
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
    public Demultiplexor start(int threads, ThreadFactory factory) {
        core.start(threads, factory);
        return this;
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
        return core.handleEvents(timeout, unit);
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
        core.beginOffload();
    }

    /**
     * Ends work announced by {@link #beginOffload()}. Any thread.
     *
     * @throws IllegalStateException if no announced work is outstanding
     */
    public void endOffload() {
        core.endOffload();
    }

    /**
     * The fatal error that closed this demultiplexor (see {@link #handleEvents}), or null if it is open or was
     * closed by {@link #close()}.
     */
    public Throwable getCloseCause() {
        return core.getCloseCause();
    }

    /** A new reusable timer / posted completion dispatched to {@code handler}. */
    public OpTimer newTimer(AsynchHandler handler) {
        return new OpTimer(core.dispatcher(), handler);
    }

    /**
     * Posts {@code op} as a completion to be dispatched soon (seed §6.1), from any thread. A pending schedule of
     * the timer is replaced by the post; posting an already posted timer only notifies again. A completion posted
     * before {@link #close()} is dispatched even if the demultiplexor closes first (by the closing thread then).
     *
     * @throws IllegalArgumentException if the timer belongs to another demultiplexor
     * @throws IllegalStateException    if closed
     */
    public void post(OpTimer op, NotifyLevel level) {
        if (!op.slot.belongsTo(core.dispatcher())) {
            throw new IllegalArgumentException("timer belongs to another demultiplexor");
        }
        op.slot.post(Objects.requireNonNull(level, "level"));
    }

    /**
     * The queue-wait and poll-gap histograms, or {@code null} unless {@code proactor.dispatchStatistics} (or
     * {@link ProactorConfig.Builder#dispatchStatistics}) is on.
     */
    public DispatchStatistics getDispatchStatistics() {
        return statistics;
    }

    /** Always-on totals (completions dispatched, queue high-water mark, leader hand-offs, deferred starts). */
    public DispatchTotals getTotals() {
        return totals;
    }

    /** The configuration this demultiplexor was opened with. */
    public ProactorConfig getConfig() {
        return core.getConfig();
    }

    /** Name of the engine actually running (after any fallback). */
    public String getEngineName() {
        return core.getEngineName();
    }

    /** Name of the wait strategy actually running. */
    public String getWaitStrategyName() {
        return core.getWaitStrategyName();
    }

    /**
     * Name of the engine that runs file operations: the primary engine if it supports them, else the
     * configured file engine ({@code threadpool}), or {@code null} when files are not supported.
     */
    public String getFileEngineName() {
        return core.getFileEngineName();
    }

    /** Number of pool threads started. */
    public int getPoolSize() {
        return core.getPoolSize();
    }

    /**
     * Number of pool threads started by {@link #start} that are still alive (a health check: it stays at the
     * configured size until {@link #close()}).
     */
    public int getLivePoolThreads() {
        return core.getLivePoolThreads();
    }

    public boolean isClosed() {
        return core.isClosed();
    }

    /**
     * Closes the demultiplexor: scheduled timers are dropped (none fires from now on, not even one already due),
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
    @Override
    public void close() {
        core.close();
    }

    @Override
    public String toString() {
        return core.toString();
    }
}
