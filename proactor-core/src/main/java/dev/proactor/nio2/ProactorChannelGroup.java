package dev.proactor.nio2;

import dev.proactor.Demultiplexor;
import dev.proactor.NotifyLevel;
import dev.proactor.ProactorConfig;
import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.AsynchronousChannelGroup;
import java.nio.channels.ShutdownChannelGroupException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An {@link AsynchronousChannelGroup} of the proactor provider: one {@link Demultiplexor} (engine and
 * leader/follower pool from the {@code proactor.*} settings) whose threads dispatch every completion of the
 * group's channels.
 *
 * <p><b>Where handlers run.</b> A group made with a thread count and a {@link ThreadFactory} has that many pool
 * threads, made by the factory; they lead, wait and run the handlers themselves. A group made with an
 * {@link ExecutorService} (and the default group, which is one on a cached thread pool) has one internal
 * dispatching thread of its own plus {@code initialSize} tasks running the dispatch loop on the executor: a
 * completion dispatched by an executor task runs its handler there, one dispatched by the internal thread is
 * handed to the executor; an executor thread that has run a task of the group is a thread of the group from then
 * on, as in the JDK. An operation that completes while it starts (the socket takes a write whole, data is already
 * there, nothing to transfer, a closed channel) has its handler invoked directly when the caller is a thread of
 * the group and fewer than {@value #MAX_DIRECT_DEPTH} such invocations are nested on it; otherwise it is handed to
 * the executor or posted to a pool thread, so the stack never grows without bound.
 *
 * <p><b>A handler that throws.</b> On the group's own threads the exception goes to the thread's uncaught-exception
 * handler and the thread goes on serving; on an executor's threads it is thrown out of the task, so the executor
 * treats it as it treats any task's exception (a {@code ThreadPoolExecutor} replaces the thread), as the JDK does.
 *
 * <p><b>As an executor.</b> Like the JDK's groups, a group is an {@link Executor} of its threads ({@link #execute}).
 *
 * <p><b>Life cycle</b>, as {@link AsynchronousChannelGroup} specifies: {@link #shutdown()} refuses new channels
 * ({@link ShutdownChannelGroupException}) and terminates the group once its last channel is closed and the
 * handlers of what the close ended have run on the group's threads ({@link ChannelDeliveries});
 * {@link #shutdownNow()} also closes every channel. Termination closes the demultiplexor and shuts the executor
 * down, if any, on a thread of its own: none of these calls waits for a handler (one may be waiting for the
 * caller), {@link #awaitTermination} does.
 *
 * <p>Thread-safe.
 */
public final class ProactorChannelGroup extends AsynchronousChannelGroup implements Executor {

    private static final Logger LOG = LoggerFactory.getLogger(ProactorChannelGroup.class);

    /** Nested direct invocations on one thread before a completion without I/O is handed off instead. */
    static final int MAX_DIRECT_DEPTH = 16;

    /** The group whose pool, dispatching or executor thread the current thread is, if any (never cleared). */
    private static final ThreadLocal<ProactorChannelGroup> CURRENT = new ThreadLocal<>();
    /** Direct invocations nested on the current thread. */
    private static final ThreadLocal<int[]> DEPTH = ThreadLocal.withInitial(() -> new int[1]);
    private static final AtomicInteger IDS = new AtomicInteger();

    private final ProactorAsynchronousChannelProvider provider;
    private final Demultiplexor demultiplexor;
    /** Null for a group of its own threads. */
    private final ExecutorService executor;
    private final boolean isDefault;
    private final String name;

    private final Set<Closeable> channels = ConcurrentHashMap.newKeySet();
    private final Object lifecycle = new Object();
    /** Guarded by lifecycle. */
    private boolean shutdown;
    /** Guarded by lifecycle. */
    private boolean terminating;
    private final CountDownLatch terminated = new CountDownLatch(1);

    private ProactorChannelGroup(ProactorAsynchronousChannelProvider provider, ProactorConfig config,
                                 ExecutorService executor, boolean isDefault) throws IOException {
        super(provider);
        this.provider = provider;
        this.executor = executor;
        this.isDefault = isDefault;
        this.name = "proactor-nio2-" + IDS.incrementAndGet() + (isDefault ? "-default" : "");
        this.demultiplexor = Demultiplexor.open(config);
    }

    /** A group whose {@code nThreads} pool threads, made by {@code factory}, dispatch and run handlers. */
    static ProactorChannelGroup ofThreads(ProactorAsynchronousChannelProvider provider, ProactorConfig config,
                                          int nThreads, ThreadFactory factory) throws IOException {
        ProactorChannelGroup g = new ProactorChannelGroup(provider, config, null, false);
        g.startOrClose(() -> g.demultiplexor.start(nThreads, r -> factory.newThread(g.bound(r))));
        return g;
    }

    /**
     * A group whose handlers run on {@code executor}: one internal dispatching thread hands completions to it,
     * and {@code initialSize} executor tasks run the dispatch loop and their handlers themselves.
     */
    static ProactorChannelGroup ofExecutor(ProactorAsynchronousChannelProvider provider, ProactorConfig config,
                                           ExecutorService executor, int initialSize, boolean isDefault)
            throws IOException {
        // The internal thread only hands completions to the executor: its handlers return promptly.
        ProactorChannelGroup g = new ProactorChannelGroup(provider, config.toBuilder().promptHandlers(true).build(),
                executor, isDefault);
        g.startOrClose(() -> {
            g.demultiplexor.start(1, r -> {
                Thread t = new Thread(r, g.name + "-dispatch");
                t.setDaemon(true);
                return t;
            });
            for (int i = 0; i < initialSize; i++) {
                executor.execute(g.bound(g::runDispatchLoop));
            }
        });
        return g;
    }

    private void startOrClose(Runnable start) {
        try {
            start.run();
        } catch (RuntimeException | Error e) {
            demultiplexor.close();
            throw e;
        }
    }

    /**
     * {@code r} run with the current thread marked as a thread of this group. The mark stays after {@code r}
     * returns (see {@link #bindCurrentThread()}).
     */
    private Runnable bound(Runnable r) {
        return () -> {
            bindCurrentThread();
            r.run();
        };
    }

    /**
     * Marks the current thread as one of this group's for the rest of its life (or until it runs a task of
     * another group), as the JDK binds a thread that ran one of its group's tasks. An executor's threads cannot be
     * listed, so a thread of an executor group is known by having run one of its tasks; the program's own tasks
     * on that thread later (Tomcat's workers writing a response) then run the handler of an operation that
     * completes at once directly, instead of queueing it behind themselves on the executor.
     */
    private void bindCurrentThread() {
        CURRENT.set(this);
    }

    /**
     * An executor task lending its thread to the dispatcher until the group terminates. An interrupt ends it only
     * when the executor is shutting down: one a handler left behind is cleared (as {@link OperationSlot#run} does).
     */
    private void runDispatchLoop() {
        while (!demultiplexor.isClosed()) {
            demultiplexor.handleEvents(-1, TimeUnit.MILLISECONDS);
            if (Thread.interrupted() && executor.isShutdown()) {
                return;
            }
        }
    }

    Demultiplexor demultiplexor() {
        return demultiplexor;
    }

    boolean isDefault() {
        return isDefault;
    }

    // ---------------------------------------------------------------- delivery of completions

    /**
     * Delivers the outcome recorded in {@code slot}: a future is completed on the calling thread (no user code
     * runs); a handler runs directly when the calling thread belongs to this group and the nesting is bounded
     * (an engine completion dispatched by a pool thread always is), else on the executor, else on a pool thread.
     */
    void deliver(OperationSlot slot) {
        if (slot.hasFuture()) {
            slot.run();
            return;
        }
        if (CURRENT.get() == this && DEPTH.get()[0] < MAX_DIRECT_DEPTH) {
            runDirect(slot);
        } else if (executor != null) {
            demultiplexor.beginOffload(); // ended by runOnExecutor: io_uring gathers the operations it starts
            try {
                executor.execute(slot.onExecutor);
            } catch (RejectedExecutionException e) {
                demultiplexor.endOffload();
                runDirect(slot); // the executor is shutting down: the handler still runs exactly once
            }
        } else {
            // Never on a thread of another group or none, whatever completed it (at its start on the caller's
            // thread, a close on the closing thread): the JDK runs handlers on the group's threads only.
            try {
                slot.post();
            } catch (IllegalStateException closed) {
                runDirect(slot); // the group terminated: nobody else will run it
            }
        }
    }

    /** Runs a delivery on this thread; what the handler throws goes to the thread's uncaught-exception handler. */
    void runDirect(OperationSlot slot) {
        int[] depth = DEPTH.get();
        depth[0]++;
        try {
            runReporting(slot);
        } finally {
            depth[0]--;
        }
    }

    /** Runs {@code r}; what it throws goes to this thread's uncaught-exception handler, and the thread goes on. */
    private static void runReporting(Runnable r) {
        try {
            r.run();
        } catch (Throwable t) {
            Thread me = Thread.currentThread();
            try {
                me.getUncaughtExceptionHandler().uncaughtException(me, t);
            } catch (Throwable ignored) {
                // an uncaught-exception handler that throws has nowhere else to report to
            }
        }
    }

    /**
     * Runs {@code task} on a thread of this group, as the JDK's groups do (they are executors, though
     * {@link AsynchronousChannelGroup} does not say so): on the executor of an executor group, else on a pool
     * thread. What the task throws is treated as what a handler throws. Under a SecurityManager the task runs
     * with the permissions of the code calling this, not those of the group's thread.
     *
     * @throws RejectedExecutionException if the group has terminated (or the executor rejects the task)
     */
    @Override
    public void execute(Runnable task) {
        Runnable run = SecurityChecks.inCallerContext(Objects.requireNonNull(task, "task"));
        if (executor != null) {
            executor.execute(bound(run));
            return;
        }
        try {
            demultiplexor.post(demultiplexor.newTimer(new PostedRun(() -> runReporting(run))), NotifyLevel.STRONG);
        } catch (IllegalStateException closed) {
            throw new RejectedExecutionException("the group has terminated: " + this, closed);
        }
    }

    /** An executor task running a delivery: what the handler throws leaves the task, as in the JDK. */
    void runOnExecutor(OperationSlot slot) {
        bindCurrentThread();
        try {
            slot.run();
        } finally {
            demultiplexor.endOffload();
        }
    }

    // ---------------------------------------------------------------- channels and life cycle

    /**
     * Adds an opened channel.
     *
     * @throws ShutdownChannelGroupException if the group is shut down
     */
    void register(Closeable channel) {
        synchronized (lifecycle) {
            if (shutdown) {
                throw new ShutdownChannelGroupException();
            }
            channels.add(channel);
        }
    }

    /** Removes a closed channel; the last one of a shut-down group terminates it. */
    void deregister(Closeable channel) {
        boolean terminate;
        synchronized (lifecycle) {
            terminate = channels.remove(channel) && shutdown && channels.isEmpty() && !terminating;
            terminating |= terminate;
        }
        if (terminate) {
            terminate();
        }
    }

    @Override
    public boolean isShutdown() {
        synchronized (lifecycle) {
            return shutdown;
        }
    }

    @Override
    public boolean isTerminated() {
        return terminated.getCount() == 0 && (executor == null || executor.isTerminated());
    }

    @Override
    public void shutdown() {
        boolean terminate;
        synchronized (lifecycle) {
            if (shutdown) {
                return;
            }
            shutdown = true;
            terminate = channels.isEmpty() && !terminating;
            terminating |= terminate;
        }
        if (terminate) {
            terminate();
        }
    }

    @Override
    public void shutdownNow() throws IOException {
        shutdown();
        List<Closeable> open = new ArrayList<>(channels);
        for (Closeable ch : open) {
            try {
                ch.close();
            } catch (IOException e) {
                LOG.debug("{}: closing {} at shutdownNow failed", name, ch, e);
            }
        }
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        if (!terminated.await(timeout, unit)) {
            return false;
        }
        return executor == null || executor.awaitTermination(Math.max(0, deadline - System.nanoTime()),
                TimeUnit.NANOSECONDS);
    }

    /**
     * Closes the demultiplexor and shuts the executor down, on a thread of its own: closing joins the pool's
     * threads, and the thread that shut the group down or closed its last channel (a handler, or a caller a
     * handler waits for) must never be one of those the close waits for. As the JDK's, {@code shutdown},
     * {@code shutdownNow} and {@code close} return at once; {@link #awaitTermination} is the call that waits.
     */
    private void terminate() {
        Thread t = new Thread(this::closeResources, name + "-terminate");
        t.setDaemon(true);
        t.start();
    }

    /** Closes the demultiplexor and shuts the executor down, privileged: the caller need not be allowed to. */
    private void closeResources() {
        try {
            SecurityChecks.runPrivileged(() -> {
                try {
                    demultiplexor.close();
                } finally {
                    if (executor != null) {
                        executor.shutdown(); // may check "modifyThread" of the caller
                    }
                }
            });
        } finally {
            terminated.countDown();
        }
    }

    @Override
    public String toString() {
        return name + "[" + demultiplexor + (executor == null ? "" : ", executor " + executor) + "]";
    }
}
