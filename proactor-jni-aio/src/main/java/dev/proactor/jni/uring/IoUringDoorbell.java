package dev.proactor.jni.uring;

import dev.proactor.jni.Errors;
import dev.proactor.jni.engine.CloseFailures;
import dev.proactor.jni.internal.EpollNative;
import dev.proactor.jni.internal.IoNative;
import dev.proactor.jni.internal.IoUringNative;
import dev.proactor.jni.internal.NativeMemory;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wakes a leader of the demultiplexor's own blocked in {@code io_uring_enter}, so that it submits the SQEs that
 * threads which may not submit have written (see {@link IoUringSubmission}): an eventfd with an {@code IORING_OP_READ}
 * of its counter always in the ring. A write to the eventfd completes that read, the completion ends the leader's
 * wait, the leader re-arms the read and submits everything written meanwhile in its next enter.
 *
 * <p>Why not the engine's submitter thread: the kernel runs the completion work of a request on the thread that
 * submitted it. A request the submitter submits therefore wakes the submitter when it completes, which then wakes
 * the leader; one the leader submits completes inside the leader's own wait. The doorbell costs the ringing thread
 * one {@code write} and the leader one wake-up, and the request's completion then costs no other thread anything.
 *
 * <p>The eventfd is blocking, as io_uring needs it to be to wait for the counter (a non-blocking one would make the
 * read complete with {@code EAGAIN}). Which thread rings, and when, is decided under the ring's monitor
 * ({@link SqeHandOff#whoSubmits()}); arming and the completion are the leader's (see {@link IoUringSubmission}).
 */
final class IoUringDoorbell {

    private static final Logger LOG = LoggerFactory.getLogger(IoUringDoorbell.class);

    /**
     * Where the kernel puts the counter it reads; never read by Java, so one for every doorbell of the process, never
     * freed: the read is in the ring when the engine closes it, and the kernel may still complete it (a ring just
     * before the close) after the close, which only starts its cancellation (see {@link IoUringLeftovers}).
     */
    private static final NativeMemory COUNTER = NativeMemory.allocate(Long.BYTES);

    private final int fd;
    /** Rings so far (tests). */
    private final AtomicLong rings = new AtomicLong();
    /** A doorbell completion was reaped since the leader last asked; the leader's only. */
    private boolean rungSeen;

    IoUringDoorbell() throws IOException {
        int efd = EpollNative.eventfd(0, EpollNative.EFD_CLOEXEC);
        if (efd < 0) {
            throw Errors.newException("eventfd", efd);
        }
        this.fd = efd;
    }

    /**
     * Writes the read of the counter into the ring (submitted by the caller's next enter, or handed on by the
     * engine like any other SQE).
     *
     * @return false if the ring is closed
     * @throws IOException if the submission queue stayed full
     */
    boolean arm(IoUringSubmission submission) throws IOException {
        return submission.writeSqe(IoUringNative.OP_READ, 0, fd, COUNTER.address(), Long.BYTES, 0, 0,
                IoUringEngine.DOORBELL_TAG);
    }

    /**
     * Rings: the armed read completes. Any thread; the ring's monitor made sure that at most one ring is on its way
     * per wait.
     *
     * @return false if the write failed (the caller must then get its SQEs submitted another way)
     */
    boolean ring() {
        rings.incrementAndGet();
        int result = EpollNative.eventfdWrite(fd, 1);
        if (result < 0) {
            LOG.warn("ringing the io_uring doorbell failed: {}", Errors.newException("write(eventfd)", result)
                    .getMessage());
            return false;
        }
        return true;
    }

    /**
     * Leader: the read completed with {@code result} (8, or {@code -errno}: cancelled when the ring closes).
     *
     * @return whether to arm it again (false once it failed: the engine then hands SQEs to its submitter)
     */
    boolean onCompleted(int result) {
        rungSeen = true;
        return result == Long.BYTES;
    }

    /** Leader: whether the doorbell rang since the last call. */
    boolean takeRung() {
        boolean seen = rungSeen;
        rungSeen = false;
        return seen;
    }

    /** How often {@link #ring()} was called (tests). */
    long rings() {
        return rings.get();
    }

    /** Closes the eventfd while {@code failure} is reported (an engine that could not be made). */
    void closeQuietly(Throwable failure) {
        CloseFailures.closeQuietly(fd, failure);
    }

    /** Closes the eventfd. After the ring is closed (which cancels the read). */
    void close() throws IOException {
        Errors.check("close(eventfd)", IoNative.close(fd));
    }
}
