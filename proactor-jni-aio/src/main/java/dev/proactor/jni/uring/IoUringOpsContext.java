package dev.proactor.jni.uring;

import dev.proactor.jni.internal.IoUringNative;

/**
 * What the operation classes ({@link IoUringOps} and the classes of each kind) read of their engine: whether to try
 * a request on its socket first ({@link IoUringTryFirst}), the {@code ioprio} of a transfer after such a try, and
 * the provided-buffer ring. They read, they never write to the ring: the SQE they describe is written by
 * {@link IoUringStarter}. Immutable; its parts are thread-safe as documented on each.
 */
final class IoUringOpsContext {

    private final IoUringFeatures features;
    private final IoUringSubmission submission;
    private final IoUringTryFirst tryFirst;
    /** The engine's provided-buffer ring, or null (off, or the kernel refused it). */
    private final IoUringBufferRing providedBuffers;

    IoUringOpsContext(IoUringFeatures features, IoUringSubmission submission, IoUringTryFirst tryFirst,
                      IoUringBufferRing providedBuffers) {
        this.features = features;
        this.submission = submission;
        this.tryFirst = tryFirst;
        this.providedBuffers = providedBuffers;
    }

    /** Whether operations the calling thread starts are tried on the socket first. */
    IoUringTryFirst tryFirst() {
        return tryFirst;
    }

    /** The engine's provided-buffer ring, or null if it has none. */
    IoUringBufferRing providedBuffers() {
        return providedBuffers;
    }

    /** Whether accepts in the ring are multishot accepts ({@link IoUringFeatures#multishotAccept()}). */
    boolean multishotAccept() {
        return features.multishotAccept();
    }

    /**
     * Whether the calling thread may arm a multishot request (a receive, an accept): only if a thread of the
     * demultiplexor's own submits what it writes ({@link IoUringSubmission#submittedByOwnThread}). The kernel runs
     * the completion work of a request on the task that submitted it, and a multishot request's at every CQE of its
     * life: armed by a user thread, whose SQEs the engine's submitter thread submits, every connection or arrival
     * would wake that otherwise idle thread. Such a thread's request is a single-shot one instead; the next request
     * a pool thread starts arms the multishot.
     */
    boolean mayArmMultishot() {
        return submission.submittedByOwnThread();
    }

    /** Whether heap reads of two blocks or more receive as a bundle (see {@link IoUringFeatures#recvBundle()}). */
    boolean recvBundle() {
        return providedBuffers != null && features.recvBundle();
    }

    /** Which stream reads arm a multishot receive: {@code OFF} without the provided-buffer ring. */
    IoUringFeatures.MultishotRecv multishotRecv() {
        return providedBuffers == null ? IoUringFeatures.MultishotRecv.OFF : features.multishotRecv();
    }

    /**
     * The {@code ioprio} of a stream {@code RECV} or {@code SEND} whose try at start has just found the socket empty
     * (full): {@code POLL_FIRST} when enabled, so the kernel waits for readiness instead of trying again at once.
     */
    int pollFirstPriority() {
        return features.pollFirst() ? IoUringNative.RECVSEND_POLL_FIRST : 0;
    }
}
