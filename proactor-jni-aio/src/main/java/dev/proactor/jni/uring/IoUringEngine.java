package dev.proactor.jni.uring;

import static dev.proactor.jni.engine.CloseFailures.addTo;

import dev.proactor.spi.Engine;
import dev.proactor.spi.EngineChannel;
import dev.proactor.spi.EngineSettings;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.OpKind;
import dev.proactor.spi.StartResult;
import dev.proactor.spi.WaitStrategy;
import java.io.IOException;
import java.net.SocketAddress;
import java.nio.channels.Channel;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Set;
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
 *
 * <p>This class holds the engine's life cycle: it makes the ring, the submission rules and the parts below, and
 * closes them all; the rest it delegates: opening and releasing channels to {@link IoUringChannels}, starting and
 * cancelling requests (any thread) to {@link IoUringStarter}, and the leader's reaping of completions (and the
 * engine's {@link #quiesce()}) to {@link IoUringReaper}. Thread-safe as its parts are; the core
 * closes it once (a later {@link #close()} returns at once).
 */
final class IoUringEngine implements Engine {

    private static final Logger LOG = LoggerFactory.getLogger(IoUringEngine.class);

    /** User data of the interrupt NOPs. */
    static final long INTERRUPT_TAG = -1L;
    /** User data of cancel requests (their own completions carry nothing the engine needs). */
    static final long CANCEL_TAG = -2L;
    /** User data of the doorbell's read (see {@link IoUringDoorbell}). */
    static final long DOORBELL_TAG = -3L;

    private final IoUringRing ring;
    /** Who submits what threads that may not submit write into the ring. */
    private final SqeHandOff handOff;
    private final WaitStrategy waitStrategy;
    private final RetiredDescriptors retired = new RetiredDescriptors();
    private volatile boolean closing;
    private final IoUringSubmission submission;
    private final IoUringChannels channels;
    /** Starts and cancels requests, and writes the SQEs of their steps. */
    private final IoUringStarter starter;
    /** The leader's reaping of completions, and the engine's quiesce. */
    private final IoUringReaper reaper;
    /** The requests in the ring, by slot. */
    private final IoUringSlots slots = new IoUringSlots();

    IoUringEngine(String waitStrategyName, IoUringFeatures features, EngineSettings settings) throws IOException {
        if (!IoUringEngineProvider.WAIT_STRATEGIES.contains(waitStrategyName)) {
            throw new IllegalArgumentException("unknown io_uring wait strategy '" + waitStrategyName
                    + "'; allowed: " + IoUringEngineProvider.WAIT_STRATEGIES);
        }
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
        IoUringBufferRing providedBuffers = providedBuffers(ring, features);
        this.starter = new IoUringStarter(submission, slots,
                new IoUringOpsContext(features, submission, new IoUringTryFirst(features, submission),
                        providedBuffers), ring);
        IoUringInterruptStrategy interrupt = new IoUringInterruptStrategy(submission);
        // Requests completed, queued by the reaper and handed out by the wait strategy; only the leader (or
        // quiesce, with no leader) touches it.
        ArrayDeque<IoRequest> completed = new ArrayDeque<>(256);
        this.reaper = new IoUringReaper(this, ring, submission, starter, slots, retired, interrupt, completed,
                providedBuffers);
        this.waitStrategy = waitStrategyName.equals(IoUringWaitStrategy.NAME)
                ? new IoUringWaitStrategy(reaper, submission, ring, handOff, interrupt, completed, features)
                : new IoUringBusyPollWaitStrategy(reaper, submission, ring, interrupt, completed);
        if (LOG.isDebugEnabled()) {
            LOG.debug("io_uring engine: {} SQ / {} CQ entries, features {}", ring.sqEntries(), ring.cqEntries(),
                    features);
        }
    }

    /**
     * The provided-buffer ring the features ask for, registered with {@code ring} (before a single-issuer ring is
     * enabled), or null: none asked, or the kernel refused it (logged; heap reads then poll and receive).
     */
    private static IoUringBufferRing providedBuffers(IoUringRing ring, IoUringFeatures features) {
        if (features.providedBuffers() == 0) {
            return null;
        }
        try {
            return IoUringBufferRing.register(ring, features.providedBuffers(), IoUringFeatures.BLOCK_SIZE);
        } catch (IOException e) {
            LOG.warn("io_uring provided-buffer ring refused ({}); heap-buffer reads poll, then receive",
                    e.getMessage());
            return null;
        }
    }

    /** The engine's provided-buffer ring, or null (tests; its counters on the thread that reaps). */
    IoUringBufferRing providedBuffers() {
        return starter.providedBuffers();
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
     * (see {@link IoUringStarter#start}), so the leader's wait needs no wake-up.
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

    /**
     * Whether {@link #close()} began: no channel is added any more, and the doorbell's read is not armed again
     * ({@link IoUringReaper}).
     */
    boolean isClosing() {
        return closing;
    }

    // ---------------------------------------------------------------- requests (see IoUringStarter)

    /** Writes the request's SQE (see {@link IoUringStarter#start}). Any thread. */
    @Override
    public StartResult start(IoRequest request) {
        return starter.start(request);
    }

    /** Writes a cancel for the request and returns false (see {@link IoUringStarter#cancel}). Any thread. */
    @Override
    public boolean cancel(IoRequest request, Throwable reason) {
        return starter.cancel(request, reason);
    }

    // ---------------------------------------------------------------- tests

    /** Tests: how long {@link #quiesce()} waits for the last completions before it gives up (30 s otherwise). */
    void quiesceLimit(long nanos) {
        reaper.quiesceLimit(nanos);
    }

    /** Starts and cancels this engine's requests (tests set its hook). */
    IoUringStarter starter() {
        return starter;
    }

    /** Whether operations are ever tried at start (tests; see {@link IoUringTryFirst#triesAtStart()}). */
    boolean triesAtStart() {
        return starter.tryFirst().triesAtStart();
    }

    /** The {@code IORING_SETUP_*} flags the ring was made with (tests). */
    int ringFlags() {
        return ring.flags;
    }

    /** How often threads that may not submit handed their SQEs to the submitter thread (tests). */
    long submitterWakeups() {
        return submission.submitterWakeups();
    }

    /** Whether the kernel has taken in every SQE written so far (tests). */
    boolean everythingSubmitted() {
        return ring.consumed(ring.writtenMark());
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

    // ---------------------------------------------------------------- life cycle

    /** Reaps until no request is left in the ring (see {@link IoUringReaper#quiesce()}). Called with no leader. */
    @Override
    public void quiesce() {
        reaper.quiesce();
    }

    /**
     * Closes every channel still registered (also ones adopted after the core closed its channels), stops the
     * submitter thread, keeps the memory of requests still in the ring ({@link IoUringLeftovers}), then closes the
     * ring, the doorbell and the descriptors still retired. Called once, by the
     * core's close sequence after the leader has left ({@link Engine#close()}); a later call returns at once. Two
     * concurrent calls are outside that contract, so {@code closing} is checked and then set, not claimed
     * atomically: the core never makes them (its close sequence runs once, on one thread).
     *
     * @throws IOException if a channel, the ring or the doorbell failed to close: the first failure, later ones
     *                     suppressed in it (everything is still closed)
     */
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
        keepLeftovers();
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

    /**
     * Before the ring is closed: requests still in it (the quiesce gave up on them) may be written by the kernel
     * after the close, which only starts their cancellation; what they point at stays reachable for the life of the
     * process ({@link IoUringLeftovers}).
     */
    private void keepLeftovers() {
        List<IoUringDirection> left = slots.inFlight();
        if (!left.isEmpty()) {
            IoUringLeftovers.keep(left, starter.providedBuffers());
            LOG.warn("{} io_uring requests still in the ring at its close: the memory they use is kept for the life"
                    + " of the process", left.size());
        }
    }

    @Override
    public String toString() {
        return "io_uring engine (" + waitStrategy.name() + ")";
    }
}
