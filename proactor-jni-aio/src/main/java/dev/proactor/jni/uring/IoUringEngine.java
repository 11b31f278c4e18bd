package dev.proactor.jni.uring;

import static dev.proactor.jni.internal.CloseFailures.addTo;

import dev.proactor.jni.internal.IoUringNative;
import dev.proactor.spi.Engine;
import dev.proactor.spi.EngineChannel;
import dev.proactor.spi.EngineSettings;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.OpKind;
import dev.proactor.spi.StartResult;
import dev.proactor.spi.WaitStrategy;
import java.io.IOException;
import java.net.SocketAddress;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.Channel;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The io_uring engine: one ring per engine, every operation a request in the ring (see the package documentation
 * for the mapping, submission, cancellation and wake-up rules).
 *
 * <p><b>Which threads submit</b>, and what happens when the submission queue is full: {@link IoUringSubmission}
 * (only threads that outlive the requests, the demultiplexor's own from {@link EngineSettings#ownThread()} and the
 * engine's submitter thread, preferably the leader; a full queue is waited on, never a failed or lost request).
 *
 * <p><b>Closing a descriptor.</b> A channel's close waits until the kernel has consumed every SQE written before it
 * (the kernel looks the descriptor up when it takes an SQE in) and only then closes the descriptor, so no SQE ever
 * reaches a number the process reused for another socket or file. On a single-issuer ring a thread other than the
 * owner cannot make the kernel consume anything, so it leaves the descriptor to the owner, which closes it after
 * the wait that consumed those SQEs ({@link RetiredDescriptors}); the engine's close closes what is left. See
 * {@link IoUringChannels#release}.
 */
final class IoUringEngine implements Engine {

    private static final Logger LOG = LoggerFactory.getLogger(IoUringEngine.class);

    /** User data of the interrupt NOPs. */
    static final long INTERRUPT_TAG = -1L;
    /** User data of cancel requests (their own completions carry nothing the engine needs). */
    static final long CANCEL_TAG = -2L;
    /** User data of the doorbell's read (see {@link IoUringDoorbell}). */
    static final long DOORBELL_TAG = -3L;
    private static final long QUIESCE_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(30);

    private final IoUringRing ring;
    /** Who submits what threads that may not submit write into the ring. */
    private final SqeHandOff handOff;
    private final IoUringFeatures features;
    private final IoUringInterruptStrategy interrupt;
    private final WaitStrategy waitStrategy;
    /** Requests completed, for the leader to hand out; only the leader (or quiesce, with no leader) touches it. */
    private final ArrayDeque<IoRequest> completed = new ArrayDeque<>(256);
    private final IoUringCompletionQueue.CompletionHandler onCompletion = this::onCompletion;

    private final IoUringSlots slots = new IoUringSlots();
    private final RetiredDescriptors retired = new RetiredDescriptors();
    private final IoUringTryFirst tryFirst;
    private volatile boolean closing;
    private final IoUringSubmission submission;
    private final IoUringChannels channels;

    IoUringEngine(String waitStrategyName, IoUringFeatures features, EngineSettings settings) throws IOException {
        if (!IoUringEngineProvider.WAIT_STRATEGIES.contains(waitStrategyName)) {
            throw new IllegalArgumentException("unknown io_uring wait strategy '" + waitStrategyName
                    + "'; allowed: " + IoUringEngineProvider.WAIT_STRATEGIES);
        }
        this.features = features;
        this.ring = new IoUringRing(features.entries(), features.setupFlags());
        this.handOff = new SqeHandOff(ring);
        try {
            this.submission = new IoUringSubmission(ring, handOff, settings.ownThread(), settings.name(),
                    features.singleIssuer());
        } catch (IOException | RuntimeException e) {
            try {
                ring.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        this.channels = new IoUringChannels(this, ring, submission, retired);
        this.tryFirst = new IoUringTryFirst(features, submission);
        this.interrupt = new IoUringInterruptStrategy(submission);
        this.waitStrategy = waitStrategyName.equals(IoUringWaitStrategy.NAME)
                ? new IoUringWaitStrategy(this, submission, ring, handOff, interrupt, completed)
                : new IoUringBusyPollWaitStrategy(this, submission, ring, interrupt, completed);
        if (LOG.isDebugEnabled()) {
            LOG.debug("io_uring engine: {} SQ / {} CQ entries, features {}", ring.sqEntries(), ring.cqEntries(),
                    features);
        }
    }

    @Override
    public String name() {
        return IoUringEngineProvider.NAME;
    }

    @Override
    public WaitStrategy waitStrategy() {
        return waitStrategy;
    }

    /** Stream and datagram sockets, files at a position, and file transmission. */
    @Override
    public boolean supports(OpKind kind) {
        return (IoUringOps.SUPPORTED & kind.bit()) != 0;
    }

    /**
     * False: a thread that starts a request while the leader blocks in {@code io_uring_enter} submits it itself
     * (see {@link #start}), so the leader's wait needs no wake-up.
     */
    @Override
    public boolean startInterruptsLeader() {
        return false;
    }

    /**
     * Counted: while offloaded work is outstanding the leader's wait is bounded, and an executor thread's hand-off
     * rings the doorbell only if no other offloaded work will end after it (see {@link SqeHandOff#whoSubmits()}).
     */
    @Override
    public void offloadBegun() {
        submission.offloadBegun();
    }

    /** The last outstanding offload's end rings the doorbell for the entries hand-offs left without it. */
    @Override
    public void offloadEnded() {
        submission.offloadEnded();
    }

    // ---------------------------------------------------------------- channels (see IoUringChannels)

    @Override
    public EngineChannel register(Channel channel) throws IOException {
        return channels.register(channel);
    }

    @Override
    public EngineChannel openSocket(SocketAddress remoteHint) throws IOException {
        return channels.openSocket(remoteHint);
    }

    @Override
    public EngineChannel openServer(SocketAddress local, int backlog) throws IOException {
        return channels.openServer(local, backlog);
    }

    @Override
    public EngineChannel openDatagram(SocketAddress local) throws IOException {
        return channels.openDatagram(local);
    }

    @Override
    public EngineChannel openFile(Path path, Set<? extends OpenOption> options) throws IOException {
        return channels.openFile(path, options);
    }

    @Override
    public EngineChannel wrapFile(FileChannel file, Set<? extends OpenOption> options) throws IOException {
        return channels.wrapFile(file, options);
    }

    @Override
    public EngineChannel adopt(Object acceptedHandle) throws IOException {
        return channels.adopt(acceptedHandle);
    }

    @Override
    public void discard(Object acceptedHandle) {
        channels.discard(acceptedHandle);
    }

    /** The engine's channels (their close releases their descriptor through it). */
    IoUringChannels channels() {
        return channels;
    }

    /** Whether {@link #close()} began: no channel is added any more. */
    boolean isClosing() {
        return closing;
    }

    // ---------------------------------------------------------------- requests

    /**
     * Writes the request's SQE. It is submitted at once when the leader is blocked in {@code io_uring_enter} (that
     * thread would not see it otherwise), else by the leader's next enter together with everything else written
     * meanwhile: one system call per batch.
     */
    @Override
    public StartResult start(IoRequest request) {
        IoUringChannel channel = (IoUringChannel) request.channel();
        IoUringDirection dir = request.kind().isInput() ? channel.input : channel.output;
        synchronized (channel) {
            if (!channel.usable()) {
                request.fail(new ClosedChannelException());
                return StartResult.COMPLETED;
            }
            if (dir.request != null) {
                request.fail(new IllegalStateException("another request is pending in this direction of "
                        + channel));
                return StartResult.COMPLETED;
            }
            dir.request = request;
            dir.slot = slots.allocate(dir);
            boolean inRing;
            try {
                inRing = IoUringOps.start(this, dir, request);
            } catch (IOException | RuntimeException e) {
                request.fail(e);
                inRing = false;
            }
            if (!inRing) {
                slots.free(dir.slot);
                dir.clear();
                return StartResult.COMPLETED;
            }
        }
        submission.afterWrite();
        return StartResult.PENDING;
    }

    /**
     * Asks the kernel to cancel the request ({@code IORING_OP_ASYNC_CANCEL} on its user data) and returns false:
     * the request completes through the ring, exactly once, whatever order its CQE and the cancel's arrive in. Its
     * own CQE is the only one that ends it: a result that had already been reached is kept (as the core's contract
     * says), any error or interrupted continuation becomes {@code reason}.
     */
    @Override
    public boolean cancel(IoRequest request, Throwable reason) {
        IoUringChannel channel = (IoUringChannel) request.channel();
        if (channel == null) {
            return false;
        }
        synchronized (channel) {
            IoUringDirection dir = request.kind().isInput() ? channel.input : channel.output;
            if (dir.request != request || dir.cancelReason != null) {
                return false;
            }
            try {
                if (!submission.writeSqe(IoUringNative.OP_ASYNC_CANCEL, 0, -1, dir.slot, 0, 0, 0, CANCEL_TAG)) {
                    return false; // the ring is closed: closing it cancels the request
                }
            } catch (IOException e) {
                // The queue stayed full: leave the request unmarked so a later cancel or close tries again.
                LOG.warn("cancelling {} on {} failed: {}", request.kind(), channel, e.getMessage());
                return false;
            }
            dir.cancelReason = reason;
        }
        submission.afterWrite();
        return false;
    }

    /** For {@link IoUringOps}: writes an SQE of the direction's request, with its slot as user data. */
    boolean prepare(IoUringDirection dir, int opcode, int ioprio, int fd, long address, int length, long offset,
                    int opFlags) throws IOException {
        if (!submission.writeSqe(opcode, ioprio, fd, address, length, offset, opFlags, dir.slot)) {
            throw new AsynchronousCloseException(); // the engine is closed
        }
        return true;
    }

    /** The {@code ioprio} of a stream RECV (or a SEND to a full socket): {@code POLL_FIRST} when enabled. */
    int recvPriority() {
        return features.pollFirst() ? IoUringNative.RECVSEND_POLL_FIRST : 0;
    }

    /** Whether operations the calling thread starts are tried on the socket first. */
    IoUringTryFirst tryFirst() {
        return tryFirst;
    }

    /** Whether operations are ever tried at start (tests; see {@link IoUringTryFirst#triesAtStart()}). */
    boolean triesAtStart() {
        return tryFirst.triesAtStart();
    }

    /** Handles one CQE. Leader (or quiesce) only. */
    private void onCompletion(long userData, int result) {
        if (userData == INTERRUPT_TAG) {
            interrupt.onNopCompleted();
            return;
        }
        if (userData == DOORBELL_TAG) {
            submission.onDoorbell(result, closing);
            return;
        }
        if (userData < 0) {
            return; // a cancel's own completion
        }
        IoUringDirection dir = slots.get(userData);
        if (dir == null) {
            LOG.error("io_uring completion for unknown slot {} (result {}) ignored", userData, result);
            return;
        }
        IoUringChannel channel = dir.channel;
        synchronized (channel) {
            IoRequest request = dir.request;
            if (request == null || dir.slot != (int) userData) {
                LOG.error("io_uring completion for slot {} without a request (result {}) ignored", userData, result);
                return;
            }
            boolean done;
            try {
                done = IoUringOps.complete(this, dir, request, result);
            } catch (IOException | RuntimeException e) {
                request.fail(dir.cancelReason != null ? dir.cancelReason
                        : channel.usable() ? e : new AsynchronousCloseException());
                done = true;
            }
            if (done) {
                slots.free(dir.slot);
                dir.clear();
                completed.add(request);
            }
        }
    }

    /** The {@code IORING_SETUP_*} flags the ring was made with (tests). */
    int ringFlags() {
        return ring.flags;
    }

    /** How often threads that may not submit handed their SQEs to the submitter thread (tests). */
    long submitterWakeups() {
        return submission.submitterWakeups();
    }

    /** Whether a leader blocks, or is about to, in {@code io_uring_enter} (tests). */
    boolean leaderWaiting() {
        return handOff.isWaiting();
    }

    /** Whether an own leader blocks, or is about to, in a wait bounded for offloaded work (tests). */
    boolean leaderWaitsBounded() {
        return handOff.isWaiting() && handOff.isWaitBounded();
    }

    /** How often the doorbell was rung (tests). */
    long doorbellRings() {
        return submission.doorbellRings();
    }

    /**
     * Whether descriptors wait for the owner to submit their SQEs and close them: the owner then submits without
     * blocking first, as an enter that blocks would take them in and only close them at its next completion.
     */
    boolean hasRetired() {
        return retired.waiting();
    }

    /** Reaps every CQE now in the ring; continuations written meanwhile go to the submitter if need be. Leader only. */
    int reap() {
        tryFirst.reapStarted();
        int n = ring.completions().reap(onCompletion);
        submission.afterReap(n);
        retired.closeConsumed(ring);
        return n;
    }

    /**
     * Waits, reaping completions, until no request is in the ring any more (every channel was closed and its
     * requests cancelled before), so the last wait finds every completion. Called with no leader.
     */
    @Override
    public void quiesce() {
        try {
            submission.claim(); // a single-issuer ring nobody ever led: this last wait is the closing thread's
        } catch (IOException e) {
            LOG.warn("enabling the io_uring ring to collect its requests failed: {}", e.getMessage());
        }
        if (!submission.mayEnter()) {
            // Its owner collected everything before it left (the core's owner mode): what is left is reaped only.
            reap();
            if (slots.inUse() > 0) {
                LOG.warn("{} io_uring requests still in flight after the ring's owner left; the ring's close cancels"
                        + " them", slots.inUse());
            }
            return;
        }
        long deadline = System.nanoTime() + QUIESCE_LIMIT_NANOS;
        while (slots.inUse() > 0 && System.nanoTime() - deadline < 0) {
            submission.submitWritten(); // the closing thread may be a user thread: it does not submit itself
            ring.enter(0, 1, TimeUnit.MILLISECONDS.toNanos(50));
            reap();
        }
        int left = slots.inUse();
        if (left > 0) {
            LOG.warn("{} io_uring requests still in flight after {} s; the ring's close cancels them", left,
                    TimeUnit.NANOSECONDS.toSeconds(QUIESCE_LIMIT_NANOS));
        }
    }

    @Override
    public void close() throws IOException {
        if (closing) {
            return;
        }
        closing = true;
        IOException failure = null;
        for (IoUringChannel channel : channels.snapshot()) {
            try {
                channel.close();
            } catch (IOException e) {
                failure = addTo(failure, e);
            }
        }
        submission.stopSubmitter();
        try {
            ring.close();
        } catch (IOException e) {
            failure = addTo(failure, e);
        }
        try {
            submission.closeDoorbell(); // after the ring: its read is gone with it
        } catch (IOException e) {
            failure = addTo(failure, e);
        }
        retired.closeAll(); // the ring is gone: no SQE reaches any number any more
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public String toString() {
        return "io_uring engine (" + waitStrategy.name() + ")";
    }
}
