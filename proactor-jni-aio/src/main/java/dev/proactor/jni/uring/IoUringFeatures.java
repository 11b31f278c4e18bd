package dev.proactor.jni.uring;

import dev.proactor.jni.IoUring;
import dev.proactor.jni.internal.IoUringNative;
import java.util.Locale;

/**
 * The optional io_uring features an engine uses: what the kernel has (probed once by {@link IoUring}) and what
 * the properties leave on. Printed at debug level when an engine starts.
 *
 * <ul>
 *   <li>{@code proactor.uring.entries} (default 4096): submission queue entries (a power of two, 1..32768); the
 *       completion queue has four times as many, and with {@code IORING_FEAT_NODROP} (required) completions beyond
 *       it are kept by the kernel, never lost.
 *   <li>{@code proactor.uring.pollFirst} (default true): a stream read (send) whose try at start has just found
 *       its socket empty (full), and a stream read whose channel's last read drained the socket, go to the ring
 *       with {@code IORING_RECVSEND_POLL_FIRST} (Linux 5.19+), so the kernel arms a poll without a receive (send)
 *       that would find nothing. Off, or on an older kernel, or for any other read or send that goes to the ring
 *       untried, the kernel first tries the socket and then arms a poll.
 *   <li>{@code proactor.uring.tryFirst} ({@code auto}, the default, {@code true} or {@code false}): whether a
 *       stream read or write, whatever its buffers (one direct buffer, several, heap buffers through the copy
 *       block), is first tried by the starting thread with one non-blocking {@code recv}/{@code send} or
 *       {@code recvmsg}/{@code sendmsg} ({@code MSG_DONTWAIT}), only what cannot be done at once going to the
 *       ring. See {@link TryFirst} for when {@code auto} tries. An accept is tried at start unless this is
 *       {@code false}.
 *   <li>{@code proactor.uring.coopTaskrun} (default true): the ring is made with {@code IORING_SETUP_COOP_TASKRUN}
 *       (Linux 5.19+; off on older kernels): the kernel does not interrupt a running submitter with an
 *       inter-processor interrupt to post a completion; the work runs at that thread's next system call (the
 *       leader's next {@code io_uring_enter}), or at the latest when its timer tick returns it to user space, and
 *       a sleeping submitter is woken as before. With requests in the ring this is what keeps the peer's every
 *       send from interrupting the server's core (measured: 1 000 echo sessions, ring path, 159 k against 138 k
 *       msgs/s without it). The price: a thread that submitted requests and then computes in user space without a
 *       system call sees their completions up to one tick late.
 *
 *   <li>{@code proactor.uring.singleIssuer} (default true): when the demultiplexor's leader is its owner thread
 *       ({@code proactor.leader=owner}, {@link dev.proactor.spi.EngineSettings#soleLeader()}) and the kernel has
 *       {@code IORING_SETUP_DEFER_TASKRUN} (Linux 6.1+), the ring is made for that one thread:
 *       {@code SINGLE_ISSUER | DEFER_TASKRUN}, disabled until the owner's first wait enables it (so the owner,
 *       not the thread that opened the demultiplexor, is its issuer). The kernel then runs the completion work of
 *       every request inside the owner's {@code io_uring_enter}, in one batch per wait, instead of at the exit of
 *       whatever system call a submitter makes next; only the owner submits, every other thread hands its SQEs to
 *       it (doorbell), and there is no submitter thread. Measured: 1 000 and 10 000 echo sessions, 6 % and 13 %
 *       more msgs/s than the shared ring; no difference at 100. Ignored under the shared and dedicated leaders,
 *       where any of several threads may wait, which such a ring forbids.
 *   <li>{@code proactor.uring.providedBuffers} (default 256; 0 turns it off): blocks of
 *       {@value #BLOCK_SIZE} bytes in the engine's provided-buffer ring ({@link IoUringBufferRing}, Linux
 *       5.19+; a power of two up to 32768). A stream read of heap buffers then goes to the ring as one {@code RECV}
 *       from which the kernel takes a block when bytes arrive, instead of a poll followed by a {@code recv} system
 *       call of the leader's; a read takes one block (several as a receive bundle, below). Off, on an older kernel, or when the ring has no
 *       block left at a receive, such a read polls and then receives through a shared block. Reads into direct
 *       buffers never use it: the kernel receives straight into them.
 *   <li>{@code proactor.uring.multishotRecv} ({@code off}, the default ({@link #DEFAULT_MULTISHOT_RECV}),
 *       {@code heap} or {@code all}): a stream read that would go to the provided-buffer ring arms one multishot
 *       {@code RECV} ({@code IORING_RECV_MULTISHOT}, Linux 6.0+) on its channel's input instead, which stays armed
 *       after the read completed: each arrival is one CQE with a block of the ring, no SQE per read; what arrives
 *       with no read pending is held for the next read, a few blocks at most ({@link IoUringMultishotRecv}).
 *       {@code heap}: the reads of heap buffers that use the provided-buffer ring; {@code all}: also reads into
 *       one direct buffer (the bytes are then copied from the block: one copy more, one SQE less). Off on an
 *       older kernel, or without the provided-buffer ring.
 *   <li>{@code proactor.uring.recvBundle} (default {@value #RECV_BUNDLE_DEFAULT}): a stream read of heap buffers
 *       with room for two blocks or more, on a channel whose last read brought a block or more (bulk data; a
 *       channel of small messages keeps one block per read), goes to the provided-buffer ring as one receive bundle
 *       ({@code IORING_RECVSEND_BUNDLE}, Linux 6.10+; off on older kernels or without the ring): the kernel fills
 *       as many blocks as the bytes there take, up to the read's room rounded down to whole blocks, in one
 *       completion, where a read of the ring otherwise takes one block. The kernel may bring more than was asked
 *       when more bytes are queued; the rest is held for the direction's next reads, as a multishot receive holds
 *       what arrives between reads. The multishot receive itself takes a block per arrival, bundles or not.
 *   <li>{@code proactor.uring.multishotAccept} (default {@value #MULTISHOT_ACCEPT_DEFAULT}): an accept that goes to
 *       the ring is posted as one {@code IORING_ACCEPT_MULTISHOT} accept (Linux 5.19+; off on older kernels) that
 *       stays armed across the accepts of its channel: each connection completes the pending accept, or is held
 *       for the next one when none is pending, and the armed accept is cancelled when a few are held, so that
 *       only a few connections are taken ahead of the application ({@link IoUringMultishotAccept}). Off: one
 *       {@code IORING_OP_ACCEPT} per accept. Not the default: see {@link #MULTISHOT_ACCEPT_DEFAULT}.
 *   <li>{@code proactor.uring.batchWaitMicros} (default 0: off; at most 1 000 000) and
 *       {@code proactor.uring.batchWaitCompletions} (default {@value #BATCH_WAIT_COMPLETIONS_DEFAULT}, 1..32768):
 *       completion coalescing, a trade of latency for CPU, on a single-issuer ring only (the owner leader, see
 *       {@code proactor.uring.singleIssuer}). The owner, finding nothing to do, waits up to that many
 *       microseconds for that many completions before it takes the ones that came (Linux 6.12+,
 *       {@code IORING_FEAT_MIN_TIMEOUT}; off on older kernels); with none by then it waits on for the first, as
 *       without it. Under a steady load below saturation the owner then handles a batch of completions per
 *       wake-up instead of one or a few, at the price of up to that much added latency for each, and for a
 *       doorbell (another thread's start) or an interrupt. A wait holds out only while batches fill
 *       ({@link IoUringCoalescing}: from a wait that found a quarter of a batch, until one that found fewer, with a
 *       probe every 1 024 plain waits), so a few connections in ping-pong are not held up. Ignored on a shared
 *       ring: there the kernel wakes the waiting thread at each arrival to post its completion, so a longer wait
 *       saves no wake-up and only adds latency (measured: proactor-bench/results/2026-11-28-coalescing and
 *       -adaptive-coalescing).
 * </ul>
 *
 * @param entries      submission queue entries
 * @param pollFirst    whether stream reads poll first
 * @param tryFirst     when stream reads and writes try the socket once at start
 * @param coopTaskrun  whether the ring is made with {@code IORING_SETUP_COOP_TASKRUN}
 * @param singleIssuer whether the ring is made for one owner thread ({@code SINGLE_ISSUER | DEFER_TASKRUN})
 * @param providedBuffers blocks in the provided-buffer ring, 0 for none
 * @param multishotRecv which stream reads arm a multishot receive ({@link MultishotRecv#OFF} without the
 *                      provided-buffer ring or on a kernel without it)
 * @param multishotAccept whether accepts in the ring are multishot accepts
 * @param recvBundle   whether heap reads of two blocks or more receive as a bundle (false without the
 *                     provided-buffer ring or on a kernel without bundles)
 * @param batchWaitMicros the longest a leader's wait holds out for {@code batchWaitCompletions} completions, 0 for
 *                        no coalescing (the property off, or a kernel without it)
 * @param batchWaitCompletions how many completions a coalescing wait holds out for
 */
record IoUringFeatures(int entries, boolean pollFirst, TryFirst tryFirst, boolean coopTaskrun, boolean singleIssuer,
                       int providedBuffers, MultishotRecv multishotRecv, boolean multishotAccept,
                       boolean recvBundle, int batchWaitMicros, int batchWaitCompletions) {

    /** When a stream read or write is tried on the socket at start ({@code proactor.uring.tryFirst}). */
    enum TryFirst {
        /**
         * {@code auto}: unless the leader's last turn completed more than one request and the starting thread's
         * SQE would go out with an enter that comes anyway (it may submit, and no leader blocks in
         * {@code io_uring_enter}: see {@link IoUringSubmission#batchesWrittenEntries()}). Then the operations the
         * turn's handlers start share the next leader's enter, which submits and reaps the whole batch in one
         * system call, where a try would cost a system call per operation. A lone completion has nothing to share
         * an enter with, and any other starter's SQE would cost a system call or a hand-off of its own: those try,
         * so that data already there, or room in the send buffer, completes the operation at once.
         */
        AUTO,
        /** {@code true}: every stream read and write is tried at start. */
        ALWAYS,
        /** {@code false}: every stream read and write is a ring request. */
        NEVER
    }

    /** Which stream reads arm a multishot receive ({@code proactor.uring.multishotRecv}). */
    enum MultishotRecv {
        /** {@code off}: every read is a request of its own. */
        OFF,
        /** {@code heap}: reads of heap buffers, those that would use the provided-buffer ring. */
        HEAP,
        /** {@code all}: also reads into one direct buffer, copied out of the block. */
        ALL
    }

    /**
     * {@code proactor.uring.multishotRecv} when unset: one place, so an A/B changes one word. Off: measured with the
     * counted-costs benchmark (proactor-bench/results/2026-11-28-counted-costs), the multishot receive costs more CPU
     * per message than a read's own {@code RECV} at 1 000 echo sessions, for heap reads (about 1.1-1.7x) and direct
     * ones ({@code all}, 1.3x), while it saves some at 100 and 10 000 sessions at a fixed rate: every arrival takes
     * a block of the ring shared by all channels, and recycling and copying out of it costs more than it saves.
     */
    static final MultishotRecv DEFAULT_MULTISHOT_RECV = MultishotRecv.OFF;

    static final String ENTRIES_PROPERTY = "proactor.uring.entries";
    static final String POLL_FIRST_PROPERTY = "proactor.uring.pollFirst";
    static final String TRY_FIRST_PROPERTY = "proactor.uring.tryFirst";
    static final String COOP_TASKRUN_PROPERTY = "proactor.uring.coopTaskrun";
    static final String SINGLE_ISSUER_PROPERTY = "proactor.uring.singleIssuer";
    static final String PROVIDED_BUFFERS_PROPERTY = "proactor.uring.providedBuffers";
    static final String MULTISHOT_RECV_PROPERTY = "proactor.uring.multishotRecv";
    static final String MULTISHOT_ACCEPT_PROPERTY = "proactor.uring.multishotAccept";
    static final String RECV_BUNDLE_PROPERTY = "proactor.uring.recvBundle";
    static final String BATCH_WAIT_MICROS_PROPERTY = "proactor.uring.batchWaitMicros";
    static final String BATCH_WAIT_COMPLETIONS_PROPERTY = "proactor.uring.batchWaitCompletions";
    /** The default of {@link #BATCH_WAIT_COMPLETIONS_PROPERTY}. */
    static final int BATCH_WAIT_COMPLETIONS_DEFAULT = 32;
    /**
     * The default of {@link #MULTISHOT_ACCEPT_PROPERTY}, where the kernel has multishot accept. Off: measured with a
     * connection per message (the bench's {@code costs --reconnect}), it saved the {@code accept4} per connection but
     * not CPU per connection: 5 % less at 100 connections, 10 % more at 1 000 (it pays a {@code getpeername} per
     * connection instead). It is correct either way: an accept a thread blocks for collects
     * the armed accept's CQEs at start ({@link IoUringAwaitedMultishot}).
     */
    static final boolean MULTISHOT_ACCEPT_DEFAULT = false;
    /**
     * The default of {@link #RECV_BUNDLE_PROPERTY}, where the kernel has receive bundles. On: measured with 64 KiB
     * heap echo (proactor-bench/results/2026-11-29-recv-bundles), about half the CPU per message and 1.8-1.9x the
     * msgs/s under load at 100 and 1 000 sessions, for 3-8 % more CPU per message with one session or at a low rate.
     */
    static final boolean RECV_BUNDLE_DEFAULT = true;
    /** Bytes per block of the provided-buffer ring: a TLS record's largest, and a common application buffer. */
    static final int BLOCK_SIZE = 16 * 1024;

    /**
     * The features from the system properties and the kernel's.
     *
     * @param soleLeader whether one thread alone waits in the engine (see {@link #singleIssuer()})
     * @throws IllegalArgumentException naming the property and the allowed values when one is malformed
     */
    static IoUringFeatures fromProperties(boolean soleLeader) {
        int entries = powerOfTwo(ENTRIES_PROPERTY, 4096, false);
        // POLL_FIRST and provided-buffer rings came with 5.19, SINGLE_ISSUER with 6.0: a kernel that accepts the
        // latter has the former.
        boolean pollFirst = flag(POLL_FIRST_PROPERTY) && IoUring.isSingleIssuerSupported();
        boolean coopTaskrun = flag(COOP_TASKRUN_PROPERTY) && IoUring.isCoopTaskrunSupported();
        boolean singleIssuer = flag(SINGLE_ISSUER_PROPERTY) && soleLeader && IoUring.isDeferTaskrunSupported();
        int providedBuffers = IoUring.isSingleIssuerSupported() ? powerOfTwo(PROVIDED_BUFFERS_PROPERTY, 256, true) : 0;
        // IORING_RECV_MULTISHOT came with 6.0, as SINGLE_ISSUER did; it takes its blocks from the provided ring.
        MultishotRecv multishotRecv = multishotRecvProperty();
        if (providedBuffers == 0 || !IoUring.isSingleIssuerSupported()) {
            multishotRecv = MultishotRecv.OFF;
        }
        // Multishot accept came with 5.19 (probed as the features above).
        boolean multishotAccept = flag(MULTISHOT_ACCEPT_PROPERTY, MULTISHOT_ACCEPT_DEFAULT)
                && IoUring.isSingleIssuerSupported();
        boolean recvBundle = flag(RECV_BUNDLE_PROPERTY, RECV_BUNDLE_DEFAULT) && providedBuffers > 0
                && IoUring.isRecvBundleSupported();
        int batchWaitMicros = intInRange(BATCH_WAIT_MICROS_PROPERTY, 0, 0, 1_000_000);
        int batchWaitCompletions = intInRange(BATCH_WAIT_COMPLETIONS_PROPERTY, BATCH_WAIT_COMPLETIONS_DEFAULT, 1,
                32768);
        // Only a single-issuer ring defers the completion work to its owner's wait, so only there does a wait for
        // several completions sleep through the arrivals: a shared ring's waiter is woken by each to post it.
        if (!IoUring.isMinTimeoutSupported() || !singleIssuer) {
            batchWaitMicros = 0;
        }
        return new IoUringFeatures(entries, pollFirst, tryFirstProperty(), coopTaskrun, singleIssuer,
                providedBuffers, multishotRecv, multishotAccept, recvBundle, batchWaitMicros, batchWaitCompletions);
    }

    /** An integer in {@code min..max} from {@code property}, else {@code byDefault}. */
    private static int intInRange(String property, int byDefault, int min, int max) {
        String text = System.getProperty(property, Integer.toString(byDefault));
        try {
            int value = Integer.parseInt(text.trim());
            if (value >= min && value <= max) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below with the allowed range
        }
        throw new IllegalArgumentException(property + " must be an integer in " + min + ".." + max + ", not '"
                + text + "'");
    }

    private static MultishotRecv multishotRecvProperty() {
        String text = System.getProperty(MULTISHOT_RECV_PROPERTY, DEFAULT_MULTISHOT_RECV.name().toLowerCase(
                Locale.ROOT)).trim();
        return switch (text) {
            case "off" -> MultishotRecv.OFF;
            case "heap" -> MultishotRecv.HEAP;
            case "all" -> MultishotRecv.ALL;
            default -> throw new IllegalArgumentException(MULTISHOT_RECV_PROPERTY + " must be off, heap or all, not '"
                    + text + "'");
        };
    }

    /** A power of two in 1..32768 (or 0 if {@code zeroAllowed}) from {@code property}, else {@code byDefault}. */
    private static int powerOfTwo(String property, int byDefault, boolean zeroAllowed) {
        String text = System.getProperty(property, Integer.toString(byDefault));
        int value;
        try {
            value = Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            value = -1;
        }
        if (value == 0 && zeroAllowed) {
            return 0;
        }
        if (value < 1 || value > 32768 || Integer.bitCount(value) != 1) {
            throw new IllegalArgumentException(property + " must be " + (zeroAllowed ? "0 or " : "")
                    + "a power of two in 1..32768, not '" + text + "'");
        }
        return value;
    }

    private static TryFirst tryFirstProperty() {
        String text = System.getProperty(TRY_FIRST_PROPERTY, "auto").trim();
        return switch (text) {
            case "auto" -> TryFirst.AUTO;
            case "true" -> TryFirst.ALWAYS;
            case "false" -> TryFirst.NEVER;
            default -> throw new IllegalArgumentException(TRY_FIRST_PROPERTY + " must be auto, true or false, not '"
                    + text + "'");
        };
    }

    private static boolean flag(String property) {
        return flag(property, true);
    }

    private static boolean flag(String property, boolean byDefault) {
        String text = System.getProperty(property, Boolean.toString(byDefault)).trim();
        if (!text.equals("true") && !text.equals("false")) {
            throw new IllegalArgumentException(property + " must be true or false, not '" + text + "'");
        }
        return Boolean.parseBoolean(text);
    }

    /** The optional {@code io_uring_setup} flags in use (see the class documentation). */
    int setupFlags() {
        int flags = coopTaskrun ? IoUringNative.SETUP_COOP_TASKRUN : 0;
        if (singleIssuer) {
            flags |= IoUringNative.SETUP_SINGLE_ISSUER | IoUringNative.SETUP_DEFER_TASKRUN
                    | IoUringNative.SETUP_R_DISABLED;
        }
        return flags;
    }

    @Override
    public String toString() {
        return "pollFirst=" + pollFirst + " tryFirst=" + tryFirst + " coopTaskrun=" + coopTaskrun + " singleIssuer="
                + singleIssuer + " (deferTaskrun: kernel " + (IoUring.isDeferTaskrunSupported() ? "has it" : "lacks it")
                + ") providedBuffers=" + providedBuffers + "x" + BLOCK_SIZE + " multishotRecv="
                + multishotRecv.name().toLowerCase(Locale.ROOT) + " multishotAccept=" + multishotAccept + " recvBundle=" + recvBundle
                + " batchWait=" + (batchWaitMicros == 0 ? "off" : batchWaitCompletions + "/" + batchWaitMicros + "us");
    }
}
