package dev.proactor.jni.uring;

/**
 * What the engine's request side needs of a direction's multishot request, a receive ({@link IoUringMultishotRecv})
 * or an accept ({@link IoUringMultishotAccept}): one SQE that stays armed across the direction's requests, and the
 * state both keep of it (its slot, whether its cancel was written); each adds what it holds. The rules both follow:
 * <ul>
 *   <li>Slot: the SQE that arms it ({@link IoUringSqe#multishot}) is written by {@link IoUringStarter} with a slot of
 *       the multishot's own ({@link #arm}), taken then and kept until its last CQE (without
 *       {@code IORING_CQE_F_MORE}), at which {@link IoUringReaper} frees it and calls {@link #ended}.</li>
 *   <li>Requests: a request served by it has the direction's mode {@link IoUringOps#MODE_MULTISHOT} and no slot of
 *       its own ({@link IoUringDirection#slot} stays -1): it arms the multishot or waits for its next CQE
 *       ({@link IoUringSqe#WAITS_FOR_MULTISHOT}); its cancel ends it at once and leaves the multishot armed; what a
 *       CQE brings with no request pending is held for the next one.</li>
 *   <li>Arming: only by a thread whose SQEs a thread of the demultiplexor's own submits
 *       ({@link IoUringOpsContext#mayArmMultishot}): the kernel runs a request's completion work on the task that
 *       submitted it, a multishot request's at every CQE; any other thread's request is a single-shot one.</li>
 *   <li>Bound: what is held is bounded by cancelling it ({@link #needsCancel}, {@link IoUringStarter#cancelMultishot});
 *       the next request that finds nothing held arms it again.</li>
 * </ul>
 *
 * <p>Guarded by the channel's monitor.
 */
abstract class IoUringMultishot {

    /** The slot of the armed SQE (its CQEs' user data), or -1 when it is not armed. */
    private int slot = -1;
    /** Whether a cancel of the armed SQE was written (its last CQE has not come yet). */
    private boolean cancelAsked;

    /** The slot of the armed SQE (its CQEs' user data), or -1 when it is not armed. */
    final int slot() {
        return slot;
    }

    /** Whether it is armed: its CQEs may still come. */
    final boolean armed() {
        return slot >= 0;
    }

    /** It was armed with {@code armedSlot} as its SQE's user data (no cancel asked yet). */
    final void arm(int armedSlot) {
        slot = armedSlot;
        cancelAsked = false;
    }

    /** Its last CQE came (or its SQE was not written): it is not armed any more; the caller frees the slot. */
    final void ended() {
        slot = -1;
        cancelAsked = false;
    }

    /** Whether it is to be cancelled now: armed, not cancelled yet, and holding what it may with no request. */
    abstract boolean needsCancel();

    /** Whether it holds something for the direction's next request. */
    abstract boolean hasHeld();

    /**
     * Holds what one of its CQEs brought while no request waits for it (its result, and its provided {@code block}
     * or -1): bytes and the end of a stream for a receive, a connection for an accept; nothing for an error or a
     * cancel (the next request arms it again). The caller saw to its last CQE ({@link #ended}).
     *
     * @return whether {@code block} is held (else the caller gives it back to {@code ring})
     */
    abstract boolean holdUntaken(IoUringDirection dir, int result, int block, IoUringBufferRing ring);

    /** Whether a cancel of the armed SQE was written (its last CQE has not come yet). */
    final boolean cancelAsked() {
        return cancelAsked;
    }

    /** A cancel of the armed SQE was written. */
    final void cancelWritten() {
        cancelAsked = true;
    }
}
