package dev.proactor.jni.uring;

import dev.proactor.jni.internal.IoUringNative;
import dev.proactor.spi.IoRequest;
import java.io.IOException;
import java.nio.channels.AsynchronousCloseException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The start of a stream read a thread blocks for ({@link IoRequest#awaited()}) whose channel's multishot receive
 * ({@link IoUringMultishotRecv}) is armed with nothing held: what the receive brought may sit in CQEs nobody reaps (the
 * blocking thread may be the last one that could poll, or the one that would run the read's completion), and trying the
 * socket could take bytes younger than theirs. So the read collects them at start: when no reap runs, the starting
 * thread takes the receive's CQEs out of the ring itself ({@link IoUringCompletionQueue#takeEntries}); when one runs,
 * it lets go of the channel's monitor for a moment, so that a reap handling a CQE of this receive holds its bytes (the
 * read is not waiting for the receive meanwhile: {@link IoUringOps#MODE_AWAITED_START}). If they brought nothing, it
 * cancels the receive and goes on until its last CQE (every CQE of it is then collected): the read then takes what was
 * held, or, with nothing held and the receive ended, receives on its own like any read tried at start. It waits for the
 * receive's CQEs instead when this thread may not submit (not one that polls), or when they are not collected within
 * {@link #COLLECT_LIMIT_NANOS} (logged).
 *
 * <p>Threads and locks: the starting thread, under the channel's monitor (let go only in that wait), and the
 * completion queue's consumer lock while it takes entries; one per engine, made by {@link IoUringStarter}.
 */
final class IoUringAwaitedRead {

    /** The engine's logger, as the starter's. */
    private static final Logger LOG = LoggerFactory.getLogger(IoUringEngine.class);

    /** Longest an awaited read works at start to collect its multishot receive's CQEs. */
    private static final long COLLECT_LIMIT_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    private final IoUringSubmission submission;
    private final IoUringSlots slots;
    private final IoUringRing ring;
    private final IoUringOpsContext context;
    /** Writes the cancel of a direction's armed multishot receive ({@link IoUringStarter#cancelMultishot}). */
    private final Consumer<IoUringDirection> cancel;
    /**
     * The direction whose multishot CQEs {@link #collect} takes now, or null: set and read only with the completion
     * queue's consumer lock held (and the direction's channel monitor).
     */
    private IoUringDirection collecting;
    private final IoUringCompletionQueue.CompletionHandler collect = this::collected;

    IoUringAwaitedRead(IoUringSubmission submission, IoUringSlots slots, IoUringRing ring, IoUringOpsContext context,
                       Consumer<IoUringDirection> cancel) {
        this.submission = submission;
        this.slots = slots;
        this.ring = ring;
        this.context = context;
        this.cancel = cancel;
    }

    /**
     * Starts the read (see the class documentation). The channel's monitor is held.
     *
     * @return the read's SQE, null if it finished at start, or {@link IoUringSqe#WAITS_FOR_MULTISHOT}
     */
    IoUringSqe start(IoUringDirection dir, IoRequest request) throws IOException {
        if (!submission.maySubmit()) {
            return IoUringSqe.WAITS_FOR_MULTISHOT;
        }
        IoUringMultishotRecv multishot = dir.multishot;
        IoUringCompletionQueue completions = ring.completions();
        long deadline = System.nanoTime() + COLLECT_LIMIT_NANOS;
        for (int spins = 0; ; spins++) {
            if (completions.tryLockConsumer()) {
                try {
                    collecting = dir;
                    completions.takeEntries(multishot.slot(), IoUringEngine.CANCEL_TAG, collect);
                } finally {
                    collecting = null;
                    completions.unlockConsumer();
                }
                if (multishot.hasHeld() || !multishot.armed()) {
                    return IoUringReadOps.afterTakingCqes(context, dir, request);
                }
                if (!multishot.cancelAsked()) {
                    cancel.accept(dir);
                }
                // Submits the cancel; the enter runs this thread's pending completion work and moves completions
                // the kernel kept aside (a full CQ ring) into the ring, whatever the ring's setup.
                submission.submitWritten();
                ring.enterNoWait(0);
            } else {
                awaitReap(dir);
            }
            if (System.nanoTime() - deadline > 0) {
                LOG.warn("the CQEs of the multishot receive of {} were not collected within {} ms; an awaited read"
                        + " waits for them", dir.channel, TimeUnit.NANOSECONDS.toMillis(COLLECT_LIMIT_NANOS));
                return IoUringSqe.WAITS_FOR_MULTISHOT;
            }
            IoUringSubmission.pause(spins);
        }
    }

    /**
     * A reap runs while an awaited read collects its receive's CQEs: lets go of the channel's monitor for a moment
     * (a reap may be waiting for it to hand on a CQE of this channel, which it holds for the read meanwhile).
     *
     * @throws AsynchronousCloseException if the channel was closed meanwhile
     */
    private static void awaitReap(IoUringDirection dir) throws IOException {
        dir.mode = IoUringOps.MODE_AWAITED_START;
        try {
            dir.channel.wait(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the blocking wait that follows the start sees it
        } finally {
            dir.mode = IoUringOps.MODE_MULTISHOT;
        }
        if (!dir.channel.usable()) {
            throw new AsynchronousCloseException();
        }
    }

    /** One CQE of {@link #collecting}'s multishot receive, taken out of the ring by {@link #start}. */
    private void collected(long userData, int result, int flags) {
        IoUringMultishotRecv multishot = collecting.multishot;
        IoUringBufferRing provided = context.providedBuffers();
        int block = IoUringBufferRing.selected(flags);
        if ((flags & IoUringNative.CQE_F_MORE) == 0) {
            slots.free(multishot.slot());
            multishot.ended();
        }
        if (!multishot.hold(result, block, provided) && block >= 0) {
            provided.giveBack(block);
        }
    }
}
