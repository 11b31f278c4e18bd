package dev.proactor.jni.uring;

import dev.proactor.jni.internal.IoUringNative;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The completion ring of one {@link IoUringRing}, which maps it, sets it up and unmaps it: Java reads the CQEs
 * through the mapped buffer. The tail the kernel writes is read with acquire semantics and the head written back
 * with release semantics ({@link VarHandle} views of the mapped buffer); CQE bodies are plain reads ordered by them.
 *
 * <p>Threading. Read by one thread at a time only, the engine's leader (or the engine's quiesce, with no leader),
 * under the consumer lock, which a reap holds from its first entry to its last entry's handling. Another thread may
 * take the lock when no reap runs ({@link #tryLockConsumer}) to take the entries of one request out of the ring
 * ({@link #takeEntries}): an awaited read of a channel whose multishot receive is armed (see
 * {@link IoUringStarter}; completions kept in the kernel past a full ring are not seen until an enter moves them in).
 * Not to be read once the ring is closed (it is unmapped).
 */
final class IoUringCompletionQueue {

    /** Receives one completion queue entry. */
    interface CompletionHandler {
        void onCompletion(long userData, int result, int flags);
    }

    private static final VarHandle INT = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.nativeOrder());

    private final ByteBuffer cqRing;
    private final int cqHead;
    private final int cqTail;
    private final int cqMask;
    private final int cqes;
    /** CQ head, the leader's only. */
    private int localCqHead;
    /** Held by a reap, or by a thread taking one request's entries; uncontended but for those. */
    private final ReentrantLock consumer = new ReentrantLock();

    /**
     * @param cqRing the mapped completion ring, in native byte order
     * @param params the {@code io_uring_params} the kernel filled in at setup (the offsets into {@code cqRing})
     */
    IoUringCompletionQueue(ByteBuffer cqRing, ByteBuffer params) {
        this.cqRing = cqRing;
        cqHead = params.getInt(IoUringNative.PARAMS_CQ_HEAD);
        cqTail = params.getInt(IoUringNative.PARAMS_CQ_TAIL);
        cqMask = cqRing.getInt(params.getInt(IoUringNative.PARAMS_CQ_RING_MASK));
        cqes = params.getInt(IoUringNative.PARAMS_CQ_CQES);
        localCqHead = (int) INT.getAcquire(cqRing, cqHead);
    }

    /**
     * Hands every completion queue entry to {@code handler} and releases them to the kernel. Leader only.
     *
     * @return how many entries were read
     */
    int reap(CompletionHandler handler) {
        consumer.lock();
        try {
            return reapLocked(handler);
        } finally {
            consumer.unlock();
        }
    }

    private int reapLocked(CompletionHandler handler) {
        int head = localCqHead;
        int tail = (int) INT.getAcquire(cqRing, cqTail);
        int count = 0;
        while (head != tail) {
            int base = cqes + (head & cqMask) * IoUringNative.CQE_SIZE;
            long userData = cqRing.getLong(base + IoUringNative.CQE_USER_DATA);
            int result = cqRing.getInt(base + IoUringNative.CQE_RES);
            int flags = cqRing.getInt(base + IoUringNative.CQE_FLAGS);
            head++;
            count++;
            // Release the slot before handling: the handler may submit, and a full CQ would only overflow.
            INT.setRelease(cqRing, cqHead, head);
            localCqHead = head;
            handler.onCompletion(userData, result, flags);
            if (head == tail) {
                tail = (int) INT.getAcquire(cqRing, cqTail);
            }
        }
        return count;
    }

    /**
     * Takes the consumer lock if no reap holds it (a thread holding it may also take it again).
     *
     * @return false if a reap runs: it hands on every entry, those it read already included
     */
    boolean tryLockConsumer() {
        return consumer.tryLock();
    }

    void unlockConsumer() {
        consumer.unlock();
    }

    /**
     * With the consumer lock held ({@link #tryLockConsumer}): hands every entry in the ring whose user data is
     * {@code userData} to {@code handler}, in order, and leaves each in the ring as an entry of user data
     * {@code neutral} without flags, which the reap that comes to it ignores (its block, if any, is the handler's).
     *
     * @return how many entries were taken
     */
    int takeEntries(long userData, long neutral, CompletionHandler handler) {
        int head = localCqHead;
        int tail = (int) INT.getAcquire(cqRing, cqTail);
        int count = 0;
        for (; head != tail; head++) {
            int base = cqes + (head & cqMask) * IoUringNative.CQE_SIZE;
            if (cqRing.getLong(base + IoUringNative.CQE_USER_DATA) != userData) {
                continue;
            }
            int result = cqRing.getInt(base + IoUringNative.CQE_RES);
            int flags = cqRing.getInt(base + IoUringNative.CQE_FLAGS);
            cqRing.putLong(base + IoUringNative.CQE_USER_DATA, neutral);
            cqRing.putInt(base + IoUringNative.CQE_FLAGS, 0);
            count++;
            handler.onCompletion(userData, result, flags);
        }
        return count;
    }
}
