package dev.proactor.jni.uring;

import static dev.proactor.jni.internal.CloseFailures.addTo;
import static dev.proactor.jni.internal.CloseFailures.closeQuietly;

import dev.proactor.jni.Errors;
import dev.proactor.jni.internal.DirectIoAlignment;
import dev.proactor.jni.internal.ErrnoNative;
import dev.proactor.jni.internal.FileNative;
import dev.proactor.jni.internal.IoNative;
import dev.proactor.jni.internal.IoUringNative;
import dev.proactor.jni.internal.Sockaddr;
import dev.proactor.jni.internal.SocketNative;
import dev.proactor.spi.Engine;
import dev.proactor.spi.EngineChannel;
import dev.proactor.spi.EngineSettings;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.OpKind;
import dev.proactor.spi.StartResult;
import dev.proactor.spi.WaitStrategy;
import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.Channel;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.nio.channels.FileChannel;
import java.nio.channels.NetworkChannel;
import java.nio.channels.SelectableChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
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
 * the wait that consumed those SQEs ({@link RetiredDescriptors}); the engine's close closes what is left.
 */
final class IoUringEngine implements Engine {

    private static final Logger LOG = LoggerFactory.getLogger(IoUringEngine.class);

    /** User data of the interrupt NOPs. */
    static final long INTERRUPT_TAG = -1L;
    /** User data of cancel requests (their own completions carry nothing the engine needs). */
    static final long CANCEL_TAG = -2L;
    /** User data of the doorbell's read (see {@link IoUringDoorbell}). */
    static final long DOORBELL_TAG = -3L;
    private static final int DEFAULT_BACKLOG = 128;
    private static final long QUIESCE_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(30);

    private final IoUringRing ring;
    private final IoUringFeatures features;
    private final IoUringInterruptStrategy interrupt;
    private final WaitStrategy waitStrategy;
    /** Requests completed, for the leader to hand out; only the leader (or quiesce, with no leader) touches it. */
    private final ArrayDeque<IoRequest> completed = new ArrayDeque<>(256);
    private final IoUringRing.CompletionHandler onCompletion = this::onCompletion;

    /** Direction of each slot in the ring; a slot is taken at start and freed at the request's last CQE. */
    private final Object slotLock = new Object();
    private IoUringDirection[] slots = new IoUringDirection[256];
    private int[] freeSlots = new int[256];
    private int freeCount;
    private int nextSlot;

    private final Set<IoUringChannel> channels = ConcurrentHashMap.newKeySet();
    private final RetiredDescriptors retired = new RetiredDescriptors();
    /**
     * Requests the leader's last turn completed: with more than one, the operations their handlers start share the
     * next enter ({@link #tryAtStart()}). Written by the leader at the end of each turn; read by starters without
     * ordering, a stale value only decides whether one operation is tried first.
     */
    private volatile int lastTurnCompletions;
    /** See {@link #reaps()}. */
    private volatile long reaps;
    private volatile boolean closing;
    private final IoUringSubmission submission;

    IoUringEngine(String waitStrategyName, IoUringFeatures features, EngineSettings settings) throws IOException {
        if (!IoUringEngineProvider.WAIT_STRATEGIES.contains(waitStrategyName)) {
            throw new IllegalArgumentException("unknown io_uring wait strategy '" + waitStrategyName
                    + "'; allowed: " + IoUringEngineProvider.WAIT_STRATEGIES);
        }
        this.features = features;
        this.ring = new IoUringRing(features.entries(), features.setupFlags());
        try {
            this.submission = new IoUringSubmission(ring, settings.ownThread(), settings.name(),
                    features.singleIssuer());
        } catch (IOException | RuntimeException e) {
            try {
                ring.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        this.interrupt = new IoUringInterruptStrategy(submission);
        this.waitStrategy = waitStrategyName.equals(IoUringWaitStrategy.NAME)
                ? new IoUringWaitStrategy(this, submission, ring, interrupt, completed)
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
     * rings the doorbell only if no other offloaded work will end after it (see {@link IoUringRing#handOff()}).
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

    // ---------------------------------------------------------------- channels

    /**
     * Takes over a JDK socket channel through the engine's own duplicate of its descriptor. The socket's file
     * description is shared with the JDK channel and is switched to blocking mode (see the package documentation):
     * the user must not use the JDK channel directly any more; closing the engine channel closes both.
     */
    @Override
    public EngineChannel register(Channel channel) throws IOException {
        if (!(channel instanceof SocketChannel) && !(channel instanceof ServerSocketChannel)
                && !(channel instanceof DatagramChannel)) {
            throw new IllegalArgumentException("the io_uring engine runs SocketChannel, ServerSocketChannel and "
                    + "DatagramChannel, not " + (channel == null ? "null" : channel.getClass().getName()));
        }
        ((SelectableChannel) channel).configureBlocking(false);
        int fd = Errors.check("fcntl(F_DUPFD_CLOEXEC)",
                FileNative.duplicate(SocketNative.fdOf((NetworkChannel) channel)));
        try {
            if (!channel.isOpen()) {
                throw new ClosedChannelException(); // closed during the dup: the number may name another socket
            }
            // The family of a JDK socket (AF_INET6 when dual-stack) decides how IPv4 targets are encoded.
            Sockaddr local = new Sockaddr();
            Errors.check("getsockname", SocketNative.localAddress(fd, local)); // unbound: the family only
            if (channel instanceof DatagramChannel) {
                return add(fd, IoUringChannel.Kind.DATAGRAM, local.family(), channel);
            }
            IoUringChannel.Kind kind = channel instanceof ServerSocketChannel ? IoUringChannel.Kind.SERVER
                    : IoUringChannel.Kind.STREAM;
            return add(fd, kind, local.family(), channel);
        } catch (IOException | RuntimeException e) {
            closeQuietly(fd, e);
            throw e;
        }
    }

    @Override
    public EngineChannel openSocket(SocketAddress remoteHint) throws IOException {
        int fd = Errors.check("socket", SocketNative.socket(familyOf(remoteHint), SocketNative.SOCK_STREAM, 0));
        return addOrClose(fd, IoUringChannel.Kind.STREAM, 0, null);
    }

    @Override
    public EngineChannel openServer(SocketAddress local, int backlog) throws IOException {
        InetSocketAddress address = local == null ? new InetSocketAddress(0) : IoUringOps.inet(local);
        int fd = Errors.check("socket", SocketNative.socket(familyOf(address), SocketNative.SOCK_STREAM, 0));
        try {
            Errors.check("setsockopt(SO_REUSEADDR)",
                    SocketNative.setIntOption(fd, SocketNative.SOL_SOCKET, SocketNative.SO_REUSEADDR, 1));
            Errors.check("bind", SocketNative.bind(fd, new Sockaddr().set(address)));
            Errors.check("listen", SocketNative.listen(fd, backlog > 0 ? backlog : DEFAULT_BACKLOG));
        } catch (IOException | RuntimeException e) {
            closeQuietly(fd, e);
            throw e;
        }
        return addOrClose(fd, IoUringChannel.Kind.SERVER, 0, null);
    }

    @Override
    public EngineChannel openDatagram(SocketAddress local) throws IOException {
        InetSocketAddress address = local == null ? new InetSocketAddress(0) : IoUringOps.inet(local);
        int fd = Errors.check("socket", SocketNative.socket(familyOf(address), SocketNative.SOCK_DGRAM, 0));
        try {
            Errors.check("bind", SocketNative.bind(fd, new Sockaddr().set(address)));
        } catch (IOException | RuntimeException e) {
            closeQuietly(fd, e);
            throw e;
        }
        return addOrClose(fd, IoUringChannel.Kind.DATAGRAM, familyOf(address), null);
    }

    /**
     * Opens the file with the JDK ({@link FileChannel#open}, so every option means what it means there) and runs
     * reads and writes on the engine's duplicate of its descriptor; {@code size()} and closing go through the JDK
     * channel. {@link dev.proactor.ProactorOpenOption#DIRECT} sets {@code O_DIRECT} on the open file and makes every
     * transfer check its alignment before it reaches the ring.
     *
     * @throws IOException if the file cannot be opened, or cannot do direct I/O when asked to
     */
    @Override
    public EngineChannel openFile(Path path, Set<? extends OpenOption> options) throws IOException {
        Set<OpenOption> jdkOptions = new HashSet<>(options);
        boolean direct = jdkOptions.remove(dev.proactor.ProactorOpenOption.DIRECT);
        boolean write = jdkOptions.contains(StandardOpenOption.WRITE) || jdkOptions.contains(StandardOpenOption.APPEND);
        FileChannel file = FileChannel.open(path, jdkOptions);
        try {
            return fileChannel(file, true, jdkOptions.contains(StandardOpenOption.READ) || !write, write, direct,
                    "file " + path);
        } catch (IOException | RuntimeException e) {
            file.close();
            throw e;
        }
    }

    /**
     * Runs reads and writes on a duplicate of the descriptor of the user's {@code file}, which stays the user's:
     * closing the channel leaves it open, and closing it makes the channel unusable.
     *
     * @throws IllegalArgumentException if {@code file} is not the JDK's own file channel
     * @throws IOException              if it is closed, or cannot do direct I/O when asked to
     */
    @Override
    public EngineChannel wrapFile(FileChannel file, Set<? extends OpenOption> options) throws IOException {
        return fileChannel(file, false, options.contains(StandardOpenOption.READ),
                options.contains(StandardOpenOption.WRITE), options.contains(dev.proactor.ProactorOpenOption.DIRECT),
                "wrapped " + file);
    }

    private IoUringChannel fileChannel(FileChannel file, boolean owned, boolean readable, boolean writable,
                                       boolean direct, String description) throws IOException {
        int original = FileNative.fdOf(file);
        if (original == -ErrnoNative.EOPNOTSUPP) {
            throw new IllegalArgumentException("the io_uring engine needs the JDK's own FileChannel, not "
                    + file.getClass().getName());
        }
        if (original < 0) {
            throw Errors.newException("file descriptor", original);
        }
        int fd = Errors.check("fcntl(F_DUPFD_CLOEXEC)", FileNative.duplicate(original));
        try {
            DirectIoAlignment alignment = direct ? DirectIoAlignment.enable(fd, description) : null;
            IoUringChannel channel = new IoUringChannel(this, fd, IoUringChannel.Kind.FILE, 0, file);
            channel.readable = readable;
            channel.writable = writable;
            channel.alignment = alignment;
            channel.closesOwner = owned;
            return add(channel); // published only once complete: a close of the engine may close it at once
        } catch (IOException | RuntimeException e) {
            closeQuietly(fd, e);
            throw e;
        }
    }

    private static int familyOf(SocketAddress address) {
        boolean ipv6 = address instanceof InetSocketAddress
                && ((InetSocketAddress) address).getAddress() instanceof Inet6Address;
        return ipv6 ? SocketNative.AF_INET6 : SocketNative.AF_INET;
    }

    @Override
    public EngineChannel adopt(Object acceptedHandle) throws IOException {
        IoUringAccepted accepted = (IoUringAccepted) acceptedHandle;
        synchronized (accepted) {
            if (!accepted.isOwned()) {
                throw new IllegalStateException(accepted + " was already adopted or discarded");
            }
            IoUringChannel channel = add(accepted.fd, IoUringChannel.Kind.STREAM, 0, null);
            accepted.release();
            return channel;
        }
    }

    @Override
    public void discard(Object acceptedHandle) {
        IoUringAccepted accepted = (IoUringAccepted) acceptedHandle;
        if (!accepted.release()) {
            return;
        }
        int result = IoNative.close(accepted.fd);
        if (result < 0) {
            LOG.warn("closing unadopted {} failed: {}", accepted, Errors.newException("close", result).getMessage());
        }
    }

    private IoUringChannel addOrClose(int fd, IoUringChannel.Kind kind, int family, Channel owner)
            throws IOException {
        try {
            return add(fd, kind, family, owner);
        } catch (IOException | RuntimeException e) {
            closeQuietly(fd, e);
            throw e;
        }
    }

    private IoUringChannel add(int fd, IoUringChannel.Kind kind, int family, Channel owner) throws IOException {
        if (kind != IoUringChannel.Kind.FILE) {
            Errors.check("fcntl(F_SETFL)", IoUringNative.setBlocking(fd));
        }
        return add(new IoUringChannel(this, fd, kind, family, owner));
    }

    /** Registers a channel made (and set up) by the caller. */
    private IoUringChannel add(IoUringChannel channel) throws IOException {
        if (closing) {
            throw new ClosedChannelException();
        }
        channels.add(channel);
        return channel;
    }

    /**
     * A channel is closing (no SQE can be written for it any more): forgets it and waits until the kernel has
     * consumed every SQE written before now, so its descriptor may be closed.
     *
     * @return false if the caller must not close the descriptor: the owner of a single-issuer ring closes it once
     *         the kernel consumed them (the caller is another thread), or the kernel did not consume them within
     *         {@link IoUringSubmission#ROOM_LIMIT_NANOS} (an SQE could still reach a number reused by the process)
     */
    boolean release(IoUringChannel channel) {
        channels.remove(channel);
        int mark = ring.writtenMark();
        if (!submission.mayEnter() && !ring.consumed(mark)) {
            retired.add(channel.fd, mark, channel.toString());
            retired.closeConsumed(ring); // the owner may have consumed them just now, and reaped before the add
            if (retired.waiting()) {
                // The owner may already block in an enter that took those SQEs in: it must come back to close.
                submission.wakeOwner();
            }
            return false;
        }
        long deadline = System.nanoTime() + IoUringSubmission.ROOM_LIMIT_NANOS;
        for (int spins = 0; !ring.consumed(mark); spins++) {
            if (System.nanoTime() - deadline > 0) {
                LOG.error("io_uring did not take in the SQEs written before closing {} within {} s; its descriptor"
                        + " is left open rather than risk I/O on a reused number", channel,
                        TimeUnit.NANOSECONDS.toSeconds(IoUringSubmission.ROOM_LIMIT_NANOS));
                return false;
            }
            submission.submitWritten();
            IoUringSubmission.pause(spins);
        }
        return true;
    }

    // ---------------------------------------------------------------- submission

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
            dir.slot = allocateSlot(dir);
            boolean inRing;
            try {
                inRing = IoUringOps.start(this, dir, request);
            } catch (IOException | RuntimeException e) {
                request.fail(e);
                inRing = false;
            }
            if (!inRing) {
                freeSlot(dir.slot);
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

    /**
     * Whether a stream read or write the calling thread starts now is tried on the socket first (see
     * {@link IoUringFeatures.TryFirst}). Under the operation's channel monitor.
     */
    boolean tryAtStart() {
        return switch (features.tryFirst()) {
            case AUTO -> lastTurnCompletions < 2 || !submission.batchesWrittenEntries();
            case ALWAYS -> true;
            case NEVER -> false;
        };
    }

    /** Leader, at the end of a turn: the turn completed {@code completions} requests (see {@link #tryAtStart()}). */
    void turnEnded(int completions) {
        lastTurnCompletions = completions;
    }

    /** Whether operations are ever tried at start ({@code proactor.uring.tryFirst} is not {@code false}). */
    boolean triesAtStart() {
        return features.tryFirst() != IoUringFeatures.TryFirst.NEVER;
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
        IoUringDirection dir;
        synchronized (slotLock) {
            dir = userData < nextSlot ? slots[(int) userData] : null;
        }
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
                freeSlot(dir.slot);
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
        return ring.isWaiting();
    }

    /** Whether an own leader blocks, or is about to, in a wait bounded for offloaded work (tests). */
    boolean leaderWaitsBounded() {
        return ring.isWaiting() && ring.isWaitBounded();
    }

    /** How often the doorbell was rung (tests). */
    long doorbellRings() {
        return submission.doorbellRings();
    }

    /**
     * Reaps started so far: with {@link IoUringDirection#drainedAtReap}, whether a socket was drained since the
     * leader last looked at the completions. Written by the leader; a stale value read by another thread only makes
     * a start try a read it could have skipped, or skip a try it could have made: both safe.
     */
    long reaps() {
        return reaps;
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
        reaps++; // the leader's only writer
        int n = ring.reap(onCompletion);
        submission.afterReap(n);
        retired.closeConsumed(ring);
        return n;
    }

    private int allocateSlot(IoUringDirection dir) {
        synchronized (slotLock) {
            int slot;
            if (freeCount > 0) {
                slot = freeSlots[--freeCount];
            } else {
                if (nextSlot == slots.length) {
                    slots = java.util.Arrays.copyOf(slots, slots.length * 2);
                    freeSlots = java.util.Arrays.copyOf(freeSlots, freeSlots.length * 2);
                }
                slot = nextSlot++;
            }
            slots[slot] = dir;
            return slot;
        }
    }

    private void freeSlot(int slot) {
        synchronized (slotLock) {
            slots[slot] = null;
            freeSlots[freeCount++] = slot;
        }
    }

    private int slotsInUse() {
        synchronized (slotLock) {
            return nextSlot - freeCount;
        }
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
            if (slotsInUse() > 0) {
                LOG.warn("{} io_uring requests still in flight after the ring's owner left; the ring's close cancels"
                        + " them", slotsInUse());
            }
            return;
        }
        long deadline = System.nanoTime() + QUIESCE_LIMIT_NANOS;
        while (slotsInUse() > 0 && System.nanoTime() - deadline < 0) {
            submission.submitWritten(); // the closing thread may be a user thread: it does not submit itself
            ring.enter(0, 1, TimeUnit.MILLISECONDS.toNanos(50));
            reap();
        }
        int left = slotsInUse();
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
        for (IoUringChannel channel : new ArrayList<>(channels)) {
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
