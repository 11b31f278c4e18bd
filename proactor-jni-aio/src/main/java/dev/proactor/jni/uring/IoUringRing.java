package dev.proactor.jni.uring;

import dev.proactor.jni.Errors;
import dev.proactor.jni.internal.ErrnoNative;
import dev.proactor.jni.internal.IoNative;
import dev.proactor.jni.internal.IoUringNative;
import dev.proactor.jni.internal.NativeMemory;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One io_uring instance: the ring descriptor and its submission and completion rings, mapped once and driven from
 * Java through direct buffers; the completion ring is read through {@link #completions()}. Head and tail indices
 * shared with the kernel are read with acquire and written with release semantics ({@link VarHandle} views of the
 * mapped buffers); SQE and CQE bodies are plain accesses ordered by them.
 *
 * <p>Threading. Submission is guarded by this object's monitor: any thread may write an SQE
 * ({@link #prepare}); only the threads {@link IoUringEngine} allows submit what was written
 * ({@link #submitPending}, or the leader's enter); the count of written but unsubmitted entries is handed out under
 * the monitor, so every entry is submitted exactly once whichever thread enters the kernel. The same monitor guards
 * the state that decides who submits an entry written by a thread that may not ({@link SqeHandOff}: an own
 * leader's turn, the doorbell, the submitter), which reads that count. No system call that blocks runs under the
 * monitor (a submit-only {@code io_uring_enter} does not block). The completion ring is read by one thread at a
 * time only, the engine's leader ({@link IoUringCompletionQueue#reap}).
 */
final class IoUringRing {

    private static final VarHandle INT = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.nativeOrder());

    final int fd;
    final int features;
    final int flags;
    private final int sqEntries;
    private final int cqEntries;

    private final long sqRingAddress;
    private final long sqRingLength;
    private final long cqRingAddress;
    private final long cqRingLength;
    private final long sqesAddress;
    private final long sqesLength;

    private final ByteBuffer sqRing;
    private final ByteBuffer sqes;
    /** The completion ring, mapped with the others; the leader's only. */
    private final IoUringCompletionQueue completions;

    private final int sqHead;
    private final int sqTail;
    private final int sqMask;

    /** Next SQ tail to publish. Guarded by this. */
    private int localTail;
    /** Entries written and not yet handed to an {@code io_uring_enter}. Guarded by this. */
    private int unsubmitted;
    /** The ring is unmapped; nothing may touch it. Guarded by this. */
    private boolean closed;
    /** Entries of threads that may not enter, waiting for room (single-issuer rings only). Guarded by this. */
    private final SqeBacklog backlog = new SqeBacklog();

    /**
     * Creates and maps a ring.
     *
     * @param entries    submission queue size (a power of two, at most 32768)
     * @param setupFlags {@code IORING_SETUP_*} flags ({@code CQSIZE} is added, the CQ gets 4 entries per SQE)
     * @throws IOException if the kernel refuses (see {@link dev.proactor.jni.IoUring} for what each errno means)
     */
    IoUringRing(int entries, int setupFlags) throws IOException {
        NativeMemory params = NativeMemory.allocate(IoUringNative.PARAMS_SIZE);
        ByteBuffer p = params.buffer();
        int flags = setupFlags | IoUringNative.SETUP_CQSIZE;
        p.putInt(IoUringNative.PARAMS_FLAGS, flags);
        p.putInt(IoUringNative.PARAMS_CQ_ENTRIES, entries * 4);
        int ringFd = IoUringNative.setup(entries, params.address());
        if (ringFd < 0) {
            throw Errors.newException("io_uring_setup", ringFd);
        }
        this.fd = ringFd;
        this.flags = flags;
        this.features = p.getInt(IoUringNative.PARAMS_FEATURES);
        this.sqEntries = p.getInt(IoUringNative.PARAMS_SQ_ENTRIES);
        this.cqEntries = p.getInt(IoUringNative.PARAMS_CQ_ENTRIES);
        long sqLen = p.getInt(IoUringNative.PARAMS_SQ_ARRAY) + (long) sqEntries * Integer.BYTES;
        long cqLen = p.getInt(IoUringNative.PARAMS_CQ_CQES) + (long) cqEntries * IoUringNative.CQE_SIZE;
        long sqesLen = (long) sqEntries * IoUringNative.SQE_SIZE;
        long sq = 0;
        long cq = 0;
        long s = 0;
        try {
            sq = map(ringFd, sqLen, IoUringNative.OFF_SQ_RING);
            cq = map(ringFd, cqLen, IoUringNative.OFF_CQ_RING);
            s = map(ringFd, sqesLen, IoUringNative.OFF_SQES);
        } catch (IOException e) {
            unmapQuietly(sq, sqLen);
            unmapQuietly(cq, cqLen);
            IoNative.close(ringFd);
            throw e;
        }
        sqRingAddress = sq;
        sqRingLength = sqLen;
        cqRingAddress = cq;
        cqRingLength = cqLen;
        sqesAddress = s;
        sqesLength = sqesLen;
        sqRing = IoUringNative.wrap(sq, (int) sqLen).order(ByteOrder.nativeOrder());
        ByteBuffer cqRing = IoUringNative.wrap(cq, (int) cqLen).order(ByteOrder.nativeOrder());
        sqes = IoUringNative.wrap(s, (int) sqesLen).order(ByteOrder.nativeOrder());
        sqHead = p.getInt(IoUringNative.PARAMS_SQ_HEAD);
        sqTail = p.getInt(IoUringNative.PARAMS_SQ_TAIL);
        sqMask = sqRing.getInt(p.getInt(IoUringNative.PARAMS_SQ_RING_MASK));
        // The SQ index array maps slot i to SQE i once and for all: SQEs are written in ring order.
        int array = p.getInt(IoUringNative.PARAMS_SQ_ARRAY);
        for (int i = 0; i < sqEntries; i++) {
            sqRing.putInt(array + i * Integer.BYTES, i);
        }
        localTail = (int) INT.getAcquire(sqRing, sqTail);
        completions = new IoUringCompletionQueue(cqRing, p);
    }

    private static long map(int fd, long length, long offset) throws IOException {
        long address = IoUringNative.mmap(fd, length, offset);
        if (address < 0 && address > -4096) {
            throw Errors.newException("mmap(io_uring)", address);
        }
        return address;
    }

    private static void unmapQuietly(long address, long length) {
        if (address != 0) {
            IoUringNative.munmap(address, length);
        }
    }

    int sqEntries() {
        return sqEntries;
    }

    int cqEntries() {
        return cqEntries;
    }

    /** The completion ring, for the engine's leader; not to be read once this ring is closed. */
    IoUringCompletionQueue completions() {
        return completions;
    }

    /** {@link #prepare} wrote the SQE. */
    static final int WRITTEN = 1;
    /** {@link #prepare} found the ring closed and wrote nothing. */
    static final int CLOSED = 0;
    /** {@link #prepare} found the submission queue full and wrote nothing (see {@link IoUringEngine}). */
    static final int FULL = -1;

    /**
     * Writes one SQE (all other fields zero) and publishes it; it is submitted by whichever allowed thread enters
     * next (see {@link IoUringEngine} for which threads may submit). Never submits itself. Any thread.
     *
     * @return {@link #WRITTEN}, {@link #CLOSED} or {@link #FULL}
     */
    synchronized int prepare(int opcode, int sqeFlags, int ioprio, int fileFd, long address, int length,
                             long offset, int opFlags, long userData) {
        if (closed) {
            return CLOSED;
        }
        if (!backlog.isEmpty()) {
            moveBacklog(); // entries written before this one go first
        }
        if (!backlog.isEmpty() || isFull()) {
            return FULL;
        }
        writeEntry(opcode, sqeFlags, ioprio, fileFd, address, length, offset, opFlags, userData);
        return WRITTEN;
    }

    /**
     * As {@link #prepare}, for a thread that may not enter a single-issuer ring: never {@link #FULL}. An entry that
     * finds the queue full, or others waiting before it, joins the {@link SqeBacklog}, which the owner's next
     * submission moves into the ring in order; the caller hands it on like any written entry.
     *
     * @return {@link #WRITTEN} (written or queued) or {@link #CLOSED}
     */
    synchronized int prepareOrQueue(int opcode, int sqeFlags, int ioprio, int fileFd, long address, int length,
                                    long offset, int opFlags, long userData) {
        if (closed) {
            return CLOSED;
        }
        moveBacklog();
        if (!backlog.isEmpty() || isFull()) {
            backlog.add(opcode, sqeFlags, ioprio, fileFd, address, length, offset, opFlags, userData);
        } else {
            writeEntry(opcode, sqeFlags, ioprio, fileFd, address, length, offset, opFlags, userData);
        }
        return WRITTEN;
    }

    /** Whether entries wait in the backlog for room (the owner must not block before they are in). */
    synchronized boolean hasBacklog() {
        return !backlog.isEmpty();
    }

    private boolean isFull() {
        return localTail - (int) INT.getAcquire(sqRing, sqHead) == sqEntries;
    }

    /** Moves backlogged entries into the ring while it has room. Lock held. */
    private void moveBacklog() {
        while (!backlog.isEmpty() && !isFull()) {
            backlog.moveFirstInto(this);
        }
    }

    /** Writes one SQE (all other fields zero) at the tail and publishes it. Lock held; the queue has room. */
    void writeEntry(int opcode, int sqeFlags, int ioprio, int fileFd, long address, int length, long offset,
                    int opFlags, long userData) {
        int base = (localTail & sqMask) * IoUringNative.SQE_SIZE;
        for (int i = 0; i < IoUringNative.SQE_SIZE; i += Long.BYTES) {
            sqes.putLong(base + i, 0L);
        }
        sqes.put(base + IoUringNative.SQE_OPCODE, (byte) opcode);
        sqes.put(base + IoUringNative.SQE_FLAGS, (byte) sqeFlags);
        sqes.putShort(base + IoUringNative.SQE_IOPRIO, (short) ioprio);
        sqes.putInt(base + IoUringNative.SQE_FD, fileFd);
        sqes.putLong(base + IoUringNative.SQE_OFF, offset);
        sqes.putLong(base + IoUringNative.SQE_ADDR, address);
        sqes.putInt(base + IoUringNative.SQE_LEN, length);
        sqes.putInt(base + IoUringNative.SQE_OP_FLAGS, opFlags);
        sqes.putLong(base + IoUringNative.SQE_USER_DATA, userData);
        localTail++;
        INT.setRelease(sqRing, sqTail, localTail);
        unsubmitted++;
    }

    /**
     * Enables a ring made with {@code IORING_SETUP_R_DISABLED}: with {@code SINGLE_ISSUER}, the calling thread
     * becomes the only one that may submit to it and wait in it. Once.
     *
     * @throws IOException if the kernel refuses
     */
    void enable() throws IOException {
        Errors.check("io_uring_register(IORING_REGISTER_ENABLE_RINGS)",
                IoUringNative.register(fd, IoUringNative.REGISTER_ENABLE_RINGS, 0, 0));
    }

    /** The position after the last SQE written so far: with {@link #consumed}, "every SQE written before now". */
    synchronized int writtenMark() {
        return localTail + backlog.size(); // backlogged entries take the next positions, in order
    }

    /**
     * Whether the kernel has consumed (looked up the file of) every SQE written before {@code mark}: it advances
     * the SQ head as it takes entries in. True once the ring is closed (nothing is submitted any more).
     */
    synchronized boolean consumed(int mark) {
        return closed || (int) INT.getAcquire(sqRing, sqHead) - mark >= 0;
    }

    /** Submits, without waiting, what is written and not submitted yet. Lock held. */
    private void submitLocked() throws IOException {
        for (;;) {
            moveBacklog();
            int n = unsubmitted;
            if (n == 0) {
                return;
            }
            unsubmitted = 0;
            int result = IoUringNative.enter(fd, n, 0, 0, -1, 0);
            giveBack(n, result);
            if (result < 0 && !isTransient(result)) {
                throw Errors.newException("io_uring_enter", result);
            }
            if (result <= 0 || backlog.isEmpty()) {
                return; // done, or the kernel takes nothing now: the next submission goes on
            }
        }
    }

    /**
     * Puts back the entries an enter did not take (a short or failed submission). Lock held (also by
     * {@link SqeHandOff#endWait}).
     */
    void giveBack(int requested, int result) {
        int taken = result < 0 ? 0 : Math.min(result, requested);
        unsubmitted += requested - taken;
    }

    /**
     * Submits what is written and not submitted yet, without waiting. Any thread; a no-op when nothing is pending
     * or the ring is closed.
     *
     * @throws IOException if the kernel refuses the submission
     */
    synchronized void submitPending() throws IOException {
        if (!closed) {
            submitLocked();
        }
    }

    /** Whether entries are written and not yet submitted. */
    synchronized boolean hasUnsubmitted() {
        return unsubmitted > 0 || !backlog.isEmpty();
    }

    /**
     * Whether entries are written and not yet submitted, and the ring is open to submit them. Lock held: for
     * {@link SqeHandOff}, whose decisions read it together with the leader's state in one hold of this monitor.
     */
    boolean awaitsSubmission() {
        return (unsubmitted > 0 || !backlog.isEmpty()) && !closed;
    }

    /**
     * Takes the count of unsubmitted entries for an {@code io_uring_enter} the caller makes outside the monitor
     * (the leader's submit-and-wait); the caller must then call {@link #afterEnter} (or, for a wait begun with
     * {@link SqeHandOff#takeForWait}, {@link SqeHandOff#endWait}).
     */
    synchronized int takeUnsubmitted() {
        if (closed) {
            return 0;
        }
        moveBacklog();
        int n = unsubmitted;
        unsubmitted = 0;
        return n;
    }

    /** After an enter of {@code requested} entries taken with {@link #takeUnsubmitted}: gives back what it left. */
    synchronized void afterEnter(int requested, int result) {
        giveBack(requested, result);
    }

    /**
     * Submits {@code toSubmit} entries and, when {@code minComplete > 0}, waits for that many completions or the
     * timeout. Leader only, outside the monitor.
     *
     * @return the kernel's result ({@code -EINTR}, {@code -ETIME} and {@code -EBUSY} are ordinary wake-ups)
     */
    int enter(int toSubmit, int minComplete, long timeoutNanos) {
        return enter(toSubmit, minComplete, timeoutNanos, 0);
    }

    /**
     * As {@link #enter(int, int, long)}, waiting at most {@code minWaitMicros} (when positive; the kernel must have
     * {@code IORING_FEAT_MIN_TIMEOUT}) for {@code minComplete} completions before it returns with any it has, or
     * waits on for one until the timeout.
     */
    int enter(int toSubmit, int minComplete, long timeoutNanos, int minWaitMicros) {
        int enterFlags = minComplete > 0 || timeoutNanos != 0 ? IoUringNative.ENTER_GETEVENTS : 0;
        return IoUringNative.enter(fd, toSubmit, minComplete, enterFlags, timeoutNanos, minWaitMicros);
    }

    /**
     * Submits {@code toSubmit} entries and collects completions without waiting (also flushing completions the
     * kernel kept aside when the CQ was full). Leader only.
     */
    int enterNoWait(int toSubmit) {
        return IoUringNative.enter(fd, toSubmit, 0, IoUringNative.ENTER_GETEVENTS, -1, 0);
    }

    /** Whether an enter result is a wake-up or a full queue rather than a failure. */
    static boolean isTransient(int result) {
        return result >= 0 || result == -IoUringNative.ETIME || Errors.isAgain(result)
                || result == -IoUringNative.EBUSY || result == -ErrnoNative.EINTR;
    }

    /** Unmaps the rings and closes the descriptor (the kernel cancels what is still in flight). Once. */
    void close() throws IOException {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        IoUringNative.munmap(sqesAddress, sqesLength);
        IoUringNative.munmap(cqRingAddress, cqRingLength);
        IoUringNative.munmap(sqRingAddress, sqRingLength);
        Errors.check("close(io_uring)", IoNative.close(fd));
    }
}
