package dev.proactor.jni.uring;

import dev.proactor.jni.Errors;
import dev.proactor.jni.engine.BounceCopies;
import dev.proactor.jni.internal.DirectBuffers;
import dev.proactor.jni.internal.IoUringNative;
import dev.proactor.jni.internal.NativeMemory;
import dev.proactor.spi.IoRequest;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The engine's provided-buffer ring ({@code IORING_REGISTER_PBUF_RING}, Linux 5.19+): equal native blocks the
 * kernel picks from when a stream read of heap buffers receives ({@code RECV} with {@code IOSQE_BUFFER_SELECT},
 * {@link IoUringReadOps}). A heap buffer has no stable address for the kernel, so its bytes pass through native
 * memory anyway; with the ring, a connection waiting with such a read pending holds none (the kernel takes a block
 * only when bytes arrive), and the read costs no system call of ours: the handler of its completion copies the
 * bytes out of the block into the request's buffers ({@link #copyOut}) and the reaper gives the block back at once
 * ({@link #giveBack}). So the blocks in use at any moment are those of the completions the kernel posted and the
 * leader has not reaped yet; a receive that finds none left completes with {@code -ENOBUFS}, and the read then
 * receives with a system call of its own, as without the ring.
 *
 * <p>A channel with a multishot receive ({@link IoUringMultishotRecv}) may hold a few blocks past their CQE, until
 * a read takes their bytes: {@link #hold} counts such a block out, {@link #release} gives it back.
 *
 * <p>A receive bundle ({@code IORING_RECVSEND_BUNDLE}, {@link IoUringFeatures#recvBundle()}) fills several blocks
 * in one CQE, which names only the first. The kernel takes blocks in the order they were put in the ring, each whole
 * but the last, so this ring remembers, for every block in it, the block put after it ({@link #nextBid}): a CQE's
 * blocks are its first and the chain that follows, as many as its bytes fill ({@link #blocksFilled}). A block's
 * successor is written when that successor is put, before the kernel can take it, and stays until the block itself
 * is put again, which is after its CQE was handled.
 *
 * <p>Threading. Blocks are given back, and the ring's tail written, under this object's monitor: by the thread that
 * handles completions (the engine's leader, or its quiesce with no leader: {@link IoUringReaper}), and, for a block
 * a multishot receive held, by the thread that takes its last bytes at a read's start or closes the channel. The
 * tail is published with release semantics for the kernel, which reads it when it picks a block; the lock is
 * uncontended but for those held blocks. Copies out of a block ({@link #copyOut}) read it at absolute indices, so
 * any number of threads copy out of different blocks at once. The memory
 * lives as long as this object, which the engine keeps until it is unreachable, after its ring was closed; if
 * receives were still in the ring then, the kernel may pick blocks after the close, and the engine keeps this object
 * for the life of the process instead ({@link IoUringLeftovers}).
 */
final class IoUringBufferRing {

    /** The buffer group of the engine's one ring: the SQE's {@code buf_group}, zero as the engine writes SQEs. */
    static final int GROUP = 0;

    private static final int PAGE = 4096;
    private static final VarHandle SHORT =
            MethodHandles.byteBufferViewVarHandle(short[].class, ByteOrder.nativeOrder());

    /** The ring's entries, page-aligned as the kernel requires; the tail overlays entry 0's last two bytes. */
    private final ByteBuffer entries;
    private final ByteBuffer blocks;
    private final long blocksAddress;
    private final int mask;
    private final int blockSize;
    /** The next tail to publish. Guarded by this. */
    private int tail;
    /** Blocks given back (guarded by this), and receives that found no block (the handling thread's). */
    private long blocksUsed;
    private long shortages;
    /** Blocks multishot receives hold past their CQE now. Guarded by this. */
    private int held;
    /** Per block: whether it is held past its CQE ({@link #hold}). Guarded by this. */
    private final boolean[] heldBlock;
    /** Per block: the block put in the ring right after it (see the class documentation). Guarded by this. */
    private final short[] nextBid;
    /** The block put last, or -1. Guarded by this. */
    private int lastPut = -1;

    private IoUringBufferRing(int count, int blockSize) {
        // alignedSlice rounds both ends inwards to the alignment: a page more than whole pages leaves them whole.
        int pages = (count * IoUringNative.BUF_SIZE + PAGE - 1) / PAGE;
        this.entries = ByteBuffer.allocateDirect((pages + 1) * PAGE).alignedSlice(PAGE)
                .order(ByteOrder.nativeOrder());
        this.blocks = ByteBuffer.allocateDirect(count * blockSize);
        this.blocksAddress = DirectBuffers.address(blocks);
        this.mask = count - 1;
        this.blockSize = blockSize;
        this.heldBlock = new boolean[count];
        this.nextBid = new short[count];
        for (int bid = 0; bid < count; bid++) {
            put(bid);
        }
    }

    /**
     * Makes a ring of {@code count} blocks of {@code blockSize} bytes, all given to the kernel, and registers it
     * with {@code ring} as buffer group {@link #GROUP}. On a single-issuer ring, before the ring is enabled (once
     * enabled, it takes registrations from its issuer thread only).
     *
     * @param count a power of two, at most 32768
     * @throws IOException if the kernel refuses the registration (before Linux 5.19: {@code EINVAL})
     */
    static IoUringBufferRing register(IoUringRing ring, int count, int blockSize) throws IOException {
        IoUringBufferRing buffers = new IoUringBufferRing(count, blockSize);
        NativeMemory reg = NativeMemory.allocate(IoUringNative.BUF_REG_SIZE);
        ByteBuffer r = reg.buffer();
        r.putLong(IoUringNative.BUF_REG_RING_ADDR, DirectBuffers.address(buffers.entries));
        r.putInt(IoUringNative.BUF_REG_RING_ENTRIES, count);
        r.putShort(IoUringNative.BUF_REG_BGID, (short) GROUP);
        int result = IoUringNative.register(ring.fd, IoUringNative.REGISTER_PBUF_RING, reg.address(), 1);
        Reference.reachabilityFence(reg); // its memory is freed once unreachable: not before the kernel read it
        Errors.check("io_uring_register(IORING_REGISTER_PBUF_RING)", result);
        return buffers;
    }

    /** Bytes per block: the most one receive into the ring takes. */
    int blockSize() {
        return blockSize;
    }

    /** The block a CQE's flags say the kernel picked, or -1 if it picked none. */
    static int selected(int cqeFlags) {
        return (cqeFlags & IoUringNative.CQE_F_BUFFER) != 0 ? cqeFlags >>> IoUringNative.CQE_BUFFER_SHIFT : -1;
    }

    /**
     * Copies up to {@code count} bytes of block {@code bid}, from byte {@code from} of it, into the request's buffers
     * in order, moving their positions; as many as their space takes.
     *
     * @return the bytes copied
     */
    int copyOut(int bid, int from, int count, IoRequest request) {
        return BounceCopies.drain(blocks, bid * blockSize + from, count, request);
    }

    /** Blocks a CQE of {@code result} bytes filled: one for a result of a block or less (or an error), else more. */
    int blocksFilled(int result) {
        return result <= blockSize ? 1 : (result + blockSize - 1) / blockSize;
    }

    /** The block the kernel takes after {@code bid} (it took {@code bid} with a bundle). See {@link #blocksFilled}. */
    synchronized int next(int bid) {
        return nextBid[bid];
    }

    /**
     * Copies the first {@code result} bytes a CQE brought, from its first block {@code first} on through the blocks
     * the kernel took after it, into the request's buffers in order, moving their positions; as many as their space
     * takes.
     *
     * @return the bytes copied: {@code result}, or fewer if the buffers were full first
     */
    int copyOutFilled(int first, int result, IoRequest request) {
        int copied = 0;
        int bid = first;
        while (true) {
            int inBlock = Math.min(blockSize, result - copied);
            int n = copyOut(bid, 0, inBlock, request);
            copied += n;
            if (n < inBlock || copied == result) {
                return copied;
            }
            bid = next(bid);
        }
    }

    /** Gives block {@code bid} back to the kernel, once its bytes were copied. */
    synchronized void giveBack(int bid) {
        put(bid);
        blocksUsed++;
    }

    /**
     * Gives back the blocks after the first that a bundle's CQE of {@code result} bytes filled (none for a CQE of
     * one block), but those held past it ({@link #hold}). Called under the channel's monitor, where such blocks
     * are held and released; the first block is its caller's to give back.
     */
    void giveBackRest(int first, int result) {
        if (result <= blockSize) {
            return; // one block: no lock taken for the common CQE
        }
        synchronized (this) {
            int bid = nextBid[first];
            for (int i = blocksFilled(result) - 1; i > 0; i--) {
                int after = nextBid[bid]; // read first: putting bid may rewrite its link
                if (!heldBlock[bid]) {
                    giveBack(bid);
                }
                bid = after;
            }
        }
    }

    /** Counts block {@code bid}, which a CQE carried, as held past its CQE (a multishot receive, a bundle's rest). */
    synchronized void hold(int bid) {
        heldBlock[bid] = true;
        held++;
    }

    /** Gives back block {@code bid}, which {@link #hold} counted. Any thread, under the holding channel's monitor. */
    synchronized void release(int bid) {
        heldBlock[bid] = false;
        held--;
        giveBack(bid);
    }

    /** Blocks multishot receives hold now (tests). */
    synchronized int held() {
        return held;
    }

    /** Counts a receive that completed with {@code -ENOBUFS}. The handling thread only. */
    void noteShortage() {
        shortages++;
    }

    /** Blocks the kernel filled and were given back so far (tests). */
    synchronized long blocksUsed() {
        return blocksUsed;
    }

    /** Receives that found no block left so far (tests, on the handling thread). */
    long shortages() {
        return shortages;
    }

    /** Writes block {@code bid} at the tail and publishes the new tail. */
    private void put(int bid) {
        int base = (tail & mask) * IoUringNative.BUF_SIZE;
        entries.putLong(base + IoUringNative.BUF_ADDR, blocksAddress + (long) bid * blockSize);
        entries.putInt(base + IoUringNative.BUF_LEN, blockSize);
        entries.putShort(base + IoUringNative.BUF_BID, (short) bid);
        if (lastPut >= 0) {
            nextBid[lastPut] = (short) bid;
        }
        lastPut = bid;
        tail++;
        SHORT.setRelease(entries, IoUringNative.BUF_RING_TAIL, (short) tail);
    }
}
