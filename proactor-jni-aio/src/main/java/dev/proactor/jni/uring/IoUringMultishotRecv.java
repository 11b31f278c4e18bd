package dev.proactor.jni.uring;

import dev.proactor.jni.internal.ErrnoNative;
import dev.proactor.jni.internal.IoUringNative;
import dev.proactor.spi.IoRequest;
import java.util.Arrays;

/**
 * The multishot receive of one stream channel's input ({@code proactor.uring.multishotRecv}): one {@code RECV} with
 * {@code IORING_RECV_MULTISHOT} and buffer select, armed by a read and left armed after it; each arrival is one CQE
 * with a block of the engine's provided-buffer ring ({@link IoUringBufferRing}). This class is its state: whether
 * it is armed (its slot), and what its CQEs brought that no read took yet, in arrival order: bytes in a block (the
 * part of the first block a read took already is skipped), the end of the stream, an error. The read side of the
 * engine ({@link IoUringReadOps}) decides what a read does with it; {@link IoUringStarter} writes its SQEs;
 * {@link IoUringReaper} hands it its CQEs. Slot and requests as every multishot's ({@link IoUringMultishot}).
 *
 * <p>Rules. A CQE without {@code IORING_CQE_F_MORE} ends the receive: it is not armed any more (its slot is freed),
 * and the next read that finds nothing held arms it again. While it is armed or holds anything, every read of the
 * direction takes what is held first and otherwise waits for the next CQE: it never tries the socket itself, which
 * could take bytes that arrived after those of a CQE not reaped yet. What is held is bounded: at {@link #HELD_LIMIT}
 * blocks with no read pending the receive is cancelled, so a slow reader cannot take the ring's blocks from every
 * other channel; blocks the kernel filled before the cancel took effect are held too. The end of the stream or an
 * error is delivered only after the bytes held before it. The channel's close gives every held block back.
 *
 * <p>Guarded by the channel's monitor (a starting thread, the leader handling a CQE, the closing thread). Blocks are
 * counted out of the ring while held ({@link IoUringBufferRing#hold}) and given back by whichever of those threads
 * takes their last byte or closes the channel ({@link IoUringBufferRing#release}). The queue's arrays grow only when
 * more CQEs arrive with no read pending than ever before on this channel: no allocation in the steady state.
 */
final class IoUringMultishotRecv extends IoUringMultishot {

    /**
     * Blocks held with no read pending at which the receive is cancelled. Two: a reader that keeps up takes the
     * first block before the second arrives (the common case is one CQE held between two reads), so two means the
     * reader fell behind; each block held is one the ring's other channels cannot receive into (256 blocks by
     * default, shared by every connection of the engine), and what the peer sends meanwhile waits in the socket.
     */
    static final int HELD_LIMIT = 2;

    /** CQE results held, in order: bytes in {@link #blocks} (> 0), end of stream (0), or -errno. */
    private int[] results = new int[4];
    /** The block of each data result, else -1. */
    private int[] blocks = new int[4];
    private int head;
    private int count;
    /** Bytes of the first held block a read took already. */
    private int headOffset;
    /** Blocks held now. */
    private int heldBlocks;

    /** Whether reads of the direction go through this receive: it is armed, or holds something. */
    boolean active() {
        return armed() || count > 0;
    }

    /** Whether it holds something for the next read. */
    @Override
    boolean hasHeld() {
        return count > 0;
    }

    /** Whether the first thing held is bytes (not the end of the stream or an error). */
    boolean holdsBytesFirst() {
        return count > 0 && results[head] > 0;
    }

    /** Blocks held now. */
    int heldBlocks() {
        return heldBlocks;
    }

    /** Whether it should be cancelled now: armed, not cancelled yet, and at the held limit (no read pending). */
    @Override
    boolean needsCancel() {
        return armed() && !cancelAsked() && heldBlocks >= HELD_LIMIT;
    }

    /** As {@link #hold}: a receive holds what it brought whether or not a read waits. */
    @Override
    boolean holdUntaken(IoUringDirection dir, int result, int block, IoUringBufferRing ring) {
        return hold(result, block, ring);
    }

    /**
     * Queues what a CQE brought: bytes (in {@code block}, then counted out of the ring), the end of the stream, or an
     * error. A receive that found no block ({@code -ENOBUFS}, counted as a shortage) or was cancelled
     * ({@code -ECANCELED}) brings nothing to hold: the next read arms it again.
     *
     * @return whether {@code block} is held (else the caller gives it back)
     */
    boolean hold(int result, int block, IoUringBufferRing ring) {
        if (result == -IoUringNative.ENOBUFS) {
            ring.noteShortage();
            return false;
        }
        if (result == -ErrnoNative.ECANCELED || result > 0 && block < 0) {
            return false;
        }
        if (count == results.length) {
            grow();
        }
        int tail = (head + count) & (results.length - 1);
        results[tail] = result;
        blocks[tail] = result > 0 ? block : -1;
        count++;
        if (result > 0) {
            heldBlocks++;
            ring.hold(block);
            return true;
        }
        return false;
    }

    /**
     * Holds {@code bytes} of block {@code block} that a receive bundle brought and its read had no room for, after
     * what is held already; {@code taken} of them (at the block's start) the read took, which only the first held
     * block may have (see {@link IoUringBundles}).
     */
    void holdBundleRest(int block, int bytes, int taken, IoUringBufferRing ring) {
        boolean first = count == 0;
        if (taken > 0 && !first) {
            throw new IllegalStateException("a receive bundle's block " + block + " taken in part behind held bytes");
        }
        hold(bytes, block, ring);
        if (first) {
            headOffset = taken;
        }
    }

    /** What {@link #take} returns for the end of the stream (0 bytes is a read whose buffers had no room). */
    static final int END_OF_STREAM = Integer.MIN_VALUE;

    /**
     * Takes what is held (it holds something) into the request's buffers: the bytes of the first held block, as many
     * as fit (a block emptied goes back to the ring; what does not fit stays held with its offset); or, with no bytes
     * before it, the end of the stream or the error held. A read takes block after block while it has room
     * ({@link #holdsBytesFirst()}).
     *
     * @return the bytes copied (0 if the buffers had no room when copied to: another thread moved them), or
     *         {@link #END_OF_STREAM}, or -errno
     */
    int take(IoRequest request, IoUringBufferRing ring) {
        int result = results[head];
        if (result <= 0) {
            pop();
            return result == 0 ? END_OF_STREAM : result;
        }
        int block = blocks[head];
        int copied = ring.copyOut(block, headOffset, result - headOffset, request);
        headOffset += copied;
        if (headOffset == result) {
            pop();
            heldBlocks--;
            ring.release(block);
        }
        return copied;
    }

    /** Gives every held block back and forgets what was held (the channel closes). */
    void releaseAll(IoUringBufferRing ring) {
        while (count > 0) {
            int block = blocks[head];
            pop();
            if (block >= 0) {
                heldBlocks--;
                ring.release(block);
            }
        }
    }

    private void pop() {
        head = (head + 1) & (results.length - 1);
        count--;
        headOffset = 0;
    }

    /** Doubles the queue (a power of two), its entries in order from index 0. */
    private void grow() {
        int length = results.length;
        int[] newResults = Arrays.copyOf(results, length * 2);
        int[] newBlocks = Arrays.copyOf(blocks, length * 2);
        for (int i = 0; i < count; i++) {
            newResults[i] = results[(head + i) & (length - 1)];
            newBlocks[i] = blocks[(head + i) & (length - 1)];
        }
        results = newResults;
        blocks = newBlocks;
        head = 0;
    }
}
