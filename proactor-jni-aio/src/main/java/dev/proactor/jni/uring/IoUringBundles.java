package dev.proactor.jni.uring;

import dev.proactor.spi.IoRequest;

/**
 * The completion of a stream read of heap buffers that received into the provided-buffer ring
 * ({@link IoUringOps#MODE_PROVIDED}), one block or a receive bundle of several ({@code IORING_RECVSEND_BUNDLE},
 * {@link IoUringFeatures#recvBundle()}): copies the bytes out of the blocks into the request's buffers, and holds
 * what did not fit for the direction's next reads.
 *
 * <p>Why something may not fit: a bundle asks for the read's room rounded down to whole blocks, but when more bytes
 * are queued once it filled them the kernel receives again into the blocks that follow and reports both in one
 * completion (kernels since 6.12 do; seen on 6.18). Those bytes are the stream's next ones, so they cannot go back to the socket: they are
 * held in the direction's {@link IoUringMultishotRecv} (made on first use), which every later read of the direction
 * takes from first, as it does what a multishot receive brought between two reads, and the channel's close gives
 * back. A read of the ring starts only when nothing is held, so the rest is the first thing held.
 *
 * <p>Blocks: the reaper gives back the CQE's first block after its handling; the blocks after it that hold nothing
 * held go back then too, under the channel's monitor ({@link IoUringBufferRing#giveBackRest}); a held block goes
 * back when a read takes its last byte ({@link IoUringBufferRing#release}).
 *
 * <p>Stateless; the caller holds the channel's monitor (the leader handling the read's completion).
 */
final class IoUringBundles {

    private IoUringBundles() {
    }

    /**
     * Copies the {@code result} bytes the CQE brought, from the block the kernel picked
     * ({@link IoUringDirection#selectedBlock}) and those after it, into the request's buffers, and holds the rest.
     *
     * @return the bytes the request took
     * @throws IllegalStateException if the request had no room for the first block (a bundle asks for two blocks or
     *                               more of the read's room), or something was held already
     */
    static int copyOut(IoUringBufferRing ring, IoUringDirection dir, IoRequest request, int result) {
        int first = dir.selectedBlock;
        int copied = ring.copyOutFilled(first, result, request);
        if (copied == result) {
            return copied;
        }
        int blockSize = ring.blockSize();
        int stoppedIn = copied / blockSize;
        if (stoppedIn == 0) {
            throw new IllegalStateException("a provided-buffer receive of " + result + " bytes, " + copied
                    + " of its first block taken");
        }
        IoUringMultishotRecv rest = dir.multishot();
        if (rest.active()) {
            throw new IllegalStateException("a provided-buffer receive completed with a multishot receive active");
        }
        int blocks = ring.blocksFilled(result);
        int bid = first;
        for (int i = 0; i < blocks; i++) {
            if (i >= stoppedIn) {
                int inBlock = Math.min(blockSize, result - i * blockSize);
                rest.holdBundleRest(bid, inBlock, i == stoppedIn ? copied - i * blockSize : 0, ring);
            }
            if (i + 1 < blocks) {
                bid = ring.next(bid);
            }
        }
        return copied;
    }
}
