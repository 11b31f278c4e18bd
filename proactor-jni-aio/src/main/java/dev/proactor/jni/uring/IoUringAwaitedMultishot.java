package dev.proactor.jni.uring;

import dev.proactor.jni.internal.IoUringNative;
import dev.proactor.spi.IoRequest;
import dev.proactor.spi.OpKind;
import java.io.IOException;
import java.nio.channels.AsynchronousCloseException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The start of a request a thread blocks for ({@link IoRequest#awaited()}) whose direction's multishot request is
 * armed with nothing held: a stream read and its multishot receive ({@link IoUringMultishotRecv}), an accept and its
 * multishot accept ({@link IoUringMultishotAccept}). What the multishot brought may sit in CQEs nobody reaps (the
 * blocking thread may be the last one that could poll, or the one that would run the request's completion), and
 * trying the socket could take bytes younger than theirs, or leave a connection behind in a CQE. So the request
 * collects them at start: when no reap runs, the starting thread takes the multishot's CQEs out of the ring itself
 * ({@link IoUringCompletionQueue#takeEntries}); when one runs, it lets go of the channel's monitor for a moment, so
 * that a reap handling a CQE of this multishot holds what it brought (the request is not waiting for the multishot
 * meanwhile: {@link IoUringOps#MODE_AWAITED_START}). If they brought nothing, it cancels the multishot and goes on
 * until its last CQE (every CQE of it is then collected): the request then takes what was held, or, with nothing
 * held and the multishot ended, is tried on the socket like any request tried at start
 * ({@link IoUringReadOps#afterTakingCqes}, {@link IoUringAcceptOps#afterTakingCqes}). It waits for the multishot's
 * CQEs instead when this thread may not submit (not one that polls), or when they are not collected within
 * {@link #COLLECT_LIMIT_NANOS} (logged).
 *
 * <p>Threads and locks: the starting thread, under the channel's monitor (let go only in that wait), and the
 * completion queue's consumer lock while it takes entries; one per engine, made by {@link IoUringStarter}.
 */
final class IoUringAwaitedMultishot {

    /** The engine's logger, as the starter's. */
    private static final Logger LOG = LoggerFactory.getLogger(IoUringEngine.class);

    /** Longest an awaited request works at start to collect its multishot's CQEs. */
    private static final long COLLECT_LIMIT_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    private final IoUringSubmission submission;
    private final IoUringSlots slots;
    private final IoUringRing ring;
    private final IoUringOpsContext context;
    /** Writes the cancel of a direction's armed multishot request ({@link IoUringStarter#cancelMultishot}). */
    private final Consumer<IoUringDirection> cancel;
    /**
     * The direction whose multishot CQEs {@link #collect} takes now, or null: set and read only with the completion
     * queue's consumer lock held (and the direction's channel monitor).
     */
    private IoUringDirection collecting;
    private final IoUringCompletionQueue.CompletionHandler collect = this::collected;

    IoUringAwaitedMultishot(IoUringSubmission submission, IoUringSlots slots, IoUringRing ring,
                            IoUringOpsContext context,
                       Consumer<IoUringDirection> cancel) {
        this.submission = submission;
        this.slots = slots;
        this.ring = ring;
        this.context = context;
        this.cancel = cancel;
    }

    /**
     * Starts the request, a read or an accept (see the class documentation). The channel's monitor is held.
     *
     * @return the request's SQE, null if it finished at start, or {@link IoUringSqe#WAITS_FOR_MULTISHOT}
     */
    IoUringSqe start(IoUringDirection dir, IoRequest request) throws IOException {
        if (!submission.maySubmit()) {
            return IoUringSqe.WAITS_FOR_MULTISHOT;
        }
        IoUringMultishot multishot = dir.multishotRequest();
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
                    return request.kind() == OpKind.ACCEPT
                            ? IoUringAcceptOps.afterTakingCqes(context, dir, request)
                            : IoUringReadOps.afterTakingCqes(context, dir, request);
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
                LOG.warn("the CQEs of the multishot request of {} were not collected within {} ms; an awaited"
                        + " request waits for them", dir.channel, TimeUnit.NANOSECONDS.toMillis(COLLECT_LIMIT_NANOS));
                return IoUringSqe.WAITS_FOR_MULTISHOT;
            }
            IoUringSubmission.pause(spins);
        }
    }

    /**
     * A reap runs while an awaited request collects its multishot's CQEs: lets go of the channel's monitor for a
     * moment (a reap may be waiting for it to hand on a CQE of this channel, which it holds for the request
     * meanwhile).
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

    /** One CQE of {@link #collecting}'s multishot request, taken out of the ring by {@link #start}. */
    private void collected(long userData, int result, int flags) {
        IoUringMultishot multishot = collecting.multishotRequest();
        IoUringBufferRing provided = context.providedBuffers();
        int block = IoUringBufferRing.selected(flags);
        if ((flags & IoUringNative.CQE_F_MORE) == 0) {
            slots.free(multishot.slot());
            multishot.ended();
        }
        if (!multishot.holdUntaken(collecting, result, block, provided) && block >= 0) {
            provided.giveBack(block);
        }
    }
}
