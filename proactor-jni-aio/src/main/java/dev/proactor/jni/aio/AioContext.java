package dev.proactor.jni.aio;

import static dev.proactor.jni.engine.CloseFailures.addTo;

import dev.proactor.jni.Errors;
import dev.proactor.jni.internal.EpollNative;
import dev.proactor.jni.internal.ErrnoNative;
import dev.proactor.jni.internal.IoNative;
import dev.proactor.jni.internal.LinuxAioNative;
import dev.proactor.jni.internal.NativeMemory;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.OpKind;
import dev.proactor.spi.StartResult;
import java.io.IOException;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonReadableChannelException;
import java.nio.channels.NonWritableChannelException;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One kernel AIO context ({@code io_setup}) running the file reads and writes of a {@link LinuxAioEngine}: a fixed
 * table of {@value #DEPTH} iocbs in native memory, an eventfd every iocb names with {@code IOCB_FLAG_RESFD} (it sits
 * in the epoll engine's set, so the same leader wait sees file completions), and the harvest of
 * {@code io_getevents} into completed requests.
 *
 * <p>Requests: what a read or write becomes in its iocb (direct buffers as they are, heap buffers through the
 * slot's bounce block, several buffers as an iovec array) and how an event's result goes back to it is
 * {@link AioFileOps}'s; this context owns the slots, submits, cancels and reaps. A short write is submitted again,
 * on the same slot, from where it stopped until every byte is written. Only disk files (regular files, block
 * devices) are submitted: {@code io_submit} would run the transfer of any other file (a pipe, a FIFO) to its end on
 * the starting thread, waiting there for another party, so those run on {@link AioBlockingFiles}'s workers and come
 * back through the same eventfd.
 *
 * <p>Cancel ({@code io_cancel}): the kernel cannot cancel plain file reads and writes (it answers {@code EINVAL}),
 * so such a request runs to the end and completes with its own result, as on the thread-pool file engine. Where a
 * kernel does cancel, the request completes once: at once when {@code io_cancel} returns the event, or with the
 * cancel reason when the event it reports later says {@code ECANCELED}.
 *
 * <p>Threading: {@link #start}, {@link #cancel} from any thread; {@link #collect} by the leader only;
 * {@link #quiesce} and {@link #close} once, at the end. No lock is held across {@code io_submit}, which runs a
 * buffered read to its end inside the call: a cold read must keep neither the leader from reaping nor it from
 * submitting the rest of a short write of the same file. What keeps the file's descriptor open during a
 * submission is the channel's submission count ({@link AioFileChannel#beginSubmit()}), whose lock is taken for a
 * moment before and after, never together with this context's. An event that cannot be applied to its request (a
 * buffer changed while in flight) fails that request only; the rest of its batch completes. Whatever filling an
 * iocb throws (a misuse, an {@link Error} such as no direct memory for a bounce block) fails that request and frees
 * its iocb.
 */
final class AioContext {

    /** Iocbs per context: requests in flight at once; more are deferred by the core until one completes. */
    static final int DEPTH = 256;
    /** Longest {@link #quiesce()}: a request the device never answers must not hang the demultiplexor's close. */
    private static final long QUIESCE_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(30);
    private static final Logger LOG = LoggerFactory.getLogger(AioContext.class);

    private final long context;
    private final int eventfd;
    private final NativeMemory iocbs = NativeMemory.allocate(DEPTH * LinuxAioNative.IOCB_SIZE);
    /** Fills {@link #iocbs} from requests and applies events back to them. */
    private final AioFileOps ops;
    /** Runs the transfers of files that are not disk files; signals {@link #eventfd} when one finished. */
    private final AioBlockingFiles blocking;
    /** io_getevents target; used under {@link #harvestLock}. */
    private final NativeMemory events = NativeMemory.allocate(DEPTH * LinuxAioNative.IO_EVENT_SIZE);
    /** io_cancel's result; used under this. */
    private final NativeMemory cancelResult = NativeMemory.allocate(LinuxAioNative.IO_EVENT_SIZE);
    private final AioSlot[] slots = new AioSlot[DEPTH];
    /** Free slot indexes; guarded by this. */
    private final int[] free = new int[DEPTH];
    private int freeCount;
    /** Iocbs the kernel holds (submitted, event not yet reaped). Written under this. */
    private volatile int inFlight;
    /** Threads inside io_submit; guarded by this (close waits for 0 before destroying the context). */
    private int submitting;

    private final Object harvestLock = new Object();
    /** Completions reaped by {@link #quiesce()} for the leader's next collect; guarded by harvestLock. */
    private final ArrayDeque<IoRequest> drained = new ArrayDeque<>();
    private volatile boolean hasDrained;
    /** Guarded by this. */
    private boolean closed;
    /**
     * Tests only: runs before each iocb of a request is filled (at start, and for the rest of a short write), so a
     * test can make that step throw (null in production).
     */
    volatile Runnable beforePrepare;
    /**
     * Tests only: run on the submitting thread just before each {@code io_submit}, with the request (a test holds a
     * submission there to see what else can go on meanwhile). Null otherwise.
     */
    volatile Consumer<IoRequest> beforeSubmit;

    /**
     * @throws IOException with the cause spelled out ({@code aio-max-nr}, seccomp) if io_setup or eventfd fails
     */
    AioContext() throws IOException {
        long ctx = LinuxAioNative.ioSetup(DEPTH);
        if (ctx < 0) {
            throw LinuxAioSupport.setupFailure(DEPTH, ctx);
        }
        int efd = EpollNative.eventfd(0, EpollNative.EFD_NONBLOCK | EpollNative.EFD_CLOEXEC);
        if (efd < 0) {
            LinuxAioNative.ioDestroy(ctx);
            throw Errors.newException("eventfd", efd);
        }
        context = ctx;
        eventfd = efd;
        ops = new AioFileOps(iocbs, efd);
        blocking = new AioBlockingFiles(efd);
        for (int i = 0; i < DEPTH; i++) {
            slots[i] = new AioSlot(i, iocbs.address(i * LinuxAioNative.IOCB_SIZE, LinuxAioNative.IOCB_SIZE));
            free[i] = DEPTH - 1 - i;
        }
        freeCount = DEPTH;
    }

    /** The eventfd the kernel signals on every completion (owned by this context). */
    int eventfd() {
        return eventfd;
    }

    // ---------------------------------------------------------------- start and cancel

    /** Starts a file read or write; see the class documentation. Any thread. */
    StartResult start(IoRequest request) {
        AioFileChannel channel = (AioFileChannel) request.channel();
        boolean read = request.kind() == OpKind.READ_FILE;
        if (read ? !channel.readable : !channel.writable) {
            request.fail(read ? new NonReadableChannelException() : new NonWritableChannelException());
            return StartResult.COMPLETED;
        }
        if (!read && !request.hasRemaining()) {
            request.complete(0); // nothing to write: no system call, as FileChannel.write
            return StartResult.COMPLETED;
        }
        if (!channel.isDisk()) {
            return startOnWorker(request, channel);
        }
        // The descriptor stays open until endSubmit; no lock is held across io_submit, which runs a buffered read
        // to its end: the leader must meanwhile be able to resubmit a short write of this file (see resubmit).
        if (!channel.beginSubmit()) {
            request.fail(new ClosedChannelException());
            return StartResult.COMPLETED;
        }
        try {
            AioSlot slot = acquire();
            if (slot == null) {
                return StartResult.DEFERRED; // every iocb in use: the core retries when one completes
            }
            slot.request = request;
            slot.channel = channel;
            request.engineScratch(slot.index + 1L);
            try {
                runHook();
                ops.prepare(slot, request, channel, read);
            } catch (Throwable e) {
                // A misused buffer, no direct memory for a bounce block, or any other Error: this request fails, its
                // iocb is free (else the slot would stay taken for ever).
                release(slot);
                request.fail(e);
                return StartResult.COMPLETED;
            }
            int result = submit(slot);
            if (result < 0) {
                boolean retry = result == -ErrnoNative.EAGAIN && inFlight > 0;
                release(slot);
                if (retry) {
                    return StartResult.DEFERRED; // the kernel's queue is full: wait for a completion
                }
                if (result == -ErrnoNative.EINVAL && channel.alignment == null) {
                    channel.aioRefused(); // a file the kernel's AIO cannot serve (procfs): the workers can
                    return startOnWorker(request, channel);
                }
                request.fail(Errors.newException("io_submit", result));
                return StartResult.COMPLETED;
            }
            return StartResult.PENDING;
        } finally {
            channel.endSubmit();
        }
    }

    /** Starts a transfer on the workers with the JDK channel (a file that is not a disk file, see AioFileChannel). */
    private StartResult startOnWorker(IoRequest request, AioFileChannel channel) {
        if (channel.isClosed() || !blocking.start(request, channel)) {
            request.fail(new ClosedChannelException());
            return StartResult.COMPLETED;
        }
        return StartResult.PENDING;
    }

    private void runHook() {
        Runnable hook = beforePrepare;
        if (hook != null) {
            hook.run();
        }
    }

    /**
     * Cancels a request in flight if the kernel can (see the class documentation).
     *
     * @return true if it was cancelled now and {@code reason} recorded (the caller posts it)
     */
    boolean cancel(IoRequest request, Throwable reason) {
        int index = (int) request.engineScratch() - 1;
        if (index < 0 || index >= DEPTH) {
            return false;
        }
        synchronized (this) {
            AioSlot slot = slots[index];
            if (slot.request != request || closed) {
                return false;
            }
            int result = LinuxAioNative.ioCancel(context, slot.iocbAddress, cancelResult.address());
            Reference.reachabilityFence(cancelResult);
            if (result == 0) {
                inFlight--; // the event was handed back here, io_getevents will not report it
                request.fail(reason);
                releaseLocked(slot);
                return true;
            }
            if (result == -ErrnoNative.EINPROGRESS) {
                slot.cancelReason = reason; // its event comes with ECANCELED: it completes then, once
            }
            return false; // EINVAL: file I/O cannot be cancelled; it completes with its own result
        }
    }

    // ---------------------------------------------------------------- slots and io_submit

    private synchronized AioSlot acquire() {
        return freeCount == 0 || closed ? null : slots[free[--freeCount]];
    }

    private void release(AioSlot slot) {
        synchronized (this) {
            releaseLocked(slot);
        }
    }

    private void releaseLocked(AioSlot slot) {
        slot.clear();
        free[freeCount++] = slot.index;
    }

    /**
     * io_submit of the slot's iocb, inside the channel's {@link AioFileChannel#beginSubmit() submission} (the
     * descriptor is open) and with no lock held: a buffered read runs inside io_submit, and the leader must be able
     * to reap and resubmit meanwhile. The iocb is counted in flight before the call (its event may be reaped before
     * the call returns) and uncounted if the kernel refused it.
     */
    private int submit(AioSlot slot) {
        synchronized (this) {
            if (closed) {
                return -ErrnoNative.EBADF;
            }
            inFlight++;
            submitting++;
        }
        int result;
        try {
            Consumer<IoRequest> hook = beforeSubmit;
            if (hook != null) {
                hook.accept(slot.request);
            }
            result = LinuxAioNative.ioSubmitOne(context, slot.iocbAddress);
            Reference.reachabilityFence(iocbs);
        } finally {
            synchronized (this) {
                submitting--;
                notifyAll(); // close() waits for submissions in progress
            }
        }
        if (result < 0) {
            synchronized (this) {
                inFlight--;
            }
        }
        return result;
    }

    // ---------------------------------------------------------------- completions

    /**
     * Leader, after every poll: when the eventfd fired, drains it and then reaps every event (in that order, so a
     * completion after the reap fires the eventfd again), and queues the finished requests; also hands over what
     * {@link #quiesce()} reaped. Allocates nothing for direct buffers.
     */
    void collect(boolean signalled, Queue<IoRequest> completed) throws IOException {
        if (!signalled && !hasDrained) {
            return;
        }
        synchronized (harvestLock) {
            if (hasDrained) {
                IoRequest r;
                while ((r = drained.poll()) != null) {
                    completed.add(r);
                }
                hasDrained = false;
            }
            if (signalled) {
                long drainedCount = EpollNative.eventfdRead(eventfd);
                if (drainedCount < 0 && !Errors.isAgain(drainedCount)) {
                    throw Errors.newException("eventfd read (AIO completions)", drainedCount);
                }
                reap(0, 0L, completed);
                blocking.drainTo(completed);
            }
        }
    }

    /** io_getevents until the ring is empty; harvestLock held. */
    private void reap(int minNr, long timeoutNanos, Queue<IoRequest> completed) throws IOException {
        while (true) {
            int n = LinuxAioNative.ioGetevents(context, minNr, DEPTH, events.address(), timeoutNanos);
            Reference.reachabilityFence(events);
            if (n == -ErrnoNative.EINTR) {
                continue;
            }
            if (n < 0) {
                throw Errors.newException("io_getevents", n);
            }
            ByteBuffer e = events.buffer();
            for (int i = 0; i < n; i++) {
                int o = i * LinuxAioNative.IO_EVENT_SIZE;
                int index = (int) e.getLong(o + LinuxAioNative.IO_EVENT_DATA_OFFSET);
                long result = e.getLong(o + LinuxAioNative.IO_EVENT_RES_OFFSET);
                synchronized (this) {
                    inFlight--;
                }
                AioSlot slot = slots[index];
                try {
                    finish(slot, result, completed);
                } catch (Throwable failure) {
                    // A buffer changed while its request was in flight (or any other misuse, or an Error): only that
                    // request fails; the rest of the batch goes on, and the iocb is free again.
                    failFinished(slot, failure, completed);
                }
            }
            if (n < DEPTH) {
                return;
            }
        }
    }

    /** Applies one event to its request: completes it, or submits the rest of a short write. */
    private void finish(AioSlot slot, long result, Queue<IoRequest> completed) {
        IoRequest request = slot.request;
        if (request == null) {
            return; // cannot happen: an iocb the kernel reports is one it holds, and its slot is taken until then
        }
        if (ops.apply(slot, request, result) && resubmit(slot, request)) {
            return; // a short write goes on from where it stopped
        }
        release(slot);
        completed.add(request);
    }

    /** Ends a request whose event could not be applied ({@code finish} threw {@code e}). */
    private void failFinished(AioSlot slot, Throwable e, Queue<IoRequest> completed) {
        IoRequest request = slot.request;
        if (request == null) {
            return;
        }
        request.fail(e);
        release(slot);
        completed.add(request);
    }

    /** Submits the rest of a short write on the same slot; false (request failed) if that is not possible. */
    private boolean resubmit(AioSlot slot, IoRequest request) {
        AioFileChannel channel = slot.channel;
        if (!channel.beginSubmit()) {
            request.fail(new AsynchronousCloseException());
            return false;
        }
        try {
            try {
                runHook();
                ops.prepare(slot, request, channel, false);
            } catch (Throwable e) { // as at start: the request fails, finish frees its iocb
                request.fail(e);
                return false;
            }
            int result = submit(slot);
            if (result < 0) {
                request.fail(Errors.newException("io_submit", result));
                return false;
            }
            return true;
        } finally {
            channel.endSubmit();
        }
    }

    // ---------------------------------------------------------------- end

    /**
     * Waits until the kernel holds no request of this context and no worker runs one (30 s at most
     * in all, {@link #QUIESCE_LIMIT_NANOS}), and keeps what finished for the leader's next {@link #collect}.
     * Called once the leaders stopped.
     */
    void quiesce() throws IOException {
        long deadline = System.nanoTime() + QUIESCE_LIMIT_NANOS;
        int running;
        synchronized (harvestLock) {
            try {
                while (inFlight > 0 && System.nanoTime() - deadline < 0) {
                    reap(1, 100_000_000L, drained);
                }
            } finally {
                running = blocking.awaitIdle(deadline, drained);
                hasDrained = !drained.isEmpty();
            }
        }
        int left = inFlight;
        if (left > 0) {
            LOG.warn("{} Linux AIO requests still in flight after {} s (a device that does not answer?); closing"
                    + " the context waits for them in the kernel, and they are not completed", left,
                    TimeUnit.NANOSECONDS.toSeconds(QUIESCE_LIMIT_NANOS));
        }
        if (running > 0) {
            LOG.warn("{} transfers of pipes or devices still waiting after {} s (nobody writes or reads the other"
                    + " side?); they are not completed", running, TimeUnit.NANOSECONDS.toSeconds(QUIESCE_LIMIT_NANOS));
        }
    }

    /** Destroys the context (the kernel waits for anything still in flight) and closes the eventfd. Once. */
    void close() throws IOException {
        blocking.close(); // before the eventfd closes: no worker signals it from now on
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            boolean interrupted = false;
            while (submitting > 0) { // an io_submit in progress names this context: destroy it after
                try {
                    wait();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        int result = LinuxAioNative.ioDestroy(context);
        IOException failure = result < 0 ? Errors.newException("io_destroy", result) : null;
        result = IoNative.close(eventfd);
        if (result < 0) {
            failure = addTo(failure, Errors.newException("close(eventfd)", result));
        }
        if (failure != null) {
            throw failure;
        }
    }
}
