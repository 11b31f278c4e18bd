package dev.proactor.jni.uring;

/**
 * Submission queue entries waiting, in the order they were written, for room in a full submission queue of a
 * single-issuer ring. Only the ring's owner may enter such a ring, so only it can make room; a thread that may not
 * enter must never wait for room, since the owner may itself be waiting for a monitor that thread holds (a channel's,
 * when a timeout of the same channel fires). Its entries queue here instead and the owner moves them into the ring
 * ({@link IoUringRing}) before anything written after them, so the kernel sees every entry in writing order.
 *
 * <p>Each entry is five words: opcode, flags, priority and descriptor packed in one; address; length and operation
 * flags packed in one; offset; user data. The array grows by doubling and is kept: a full queue costs an allocation
 * only the first time it gets that deep.
 *
 * <p>Not thread-safe: guarded by the ring's monitor.
 */
final class SqeBacklog {

    private static final int WORDS = 5;

    private long[] words = new long[WORDS * 8];
    /** Index of the first entry (in entries, not words). */
    private int head;
    private int size;

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    /** Appends an entry. */
    void add(int opcode, int sqeFlags, int ioprio, int fd, long address, int length, long offset, int opFlags,
             long userData) {
        int capacity = words.length / WORDS;
        if (size == capacity) {
            grow(capacity);
        }
        int at = ((head + size) % (words.length / WORDS)) * WORDS;
        words[at] = (opcode & 0xFFL) | (sqeFlags & 0xFFL) << 8 | (ioprio & 0xFFFFL) << 16 | (fd & 0xFFFF_FFFFL) << 32;
        words[at + 1] = address;
        words[at + 2] = (length & 0xFFFF_FFFFL) | (opFlags & 0xFFFF_FFFFL) << 32;
        words[at + 3] = offset;
        words[at + 4] = userData;
        size++;
    }

    private void grow(int capacity) {
        long[] bigger = new long[words.length * 2];
        for (int i = 0; i < size; i++) {
            System.arraycopy(words, ((head + i) % capacity) * WORDS, bigger, i * WORDS, WORDS);
        }
        words = bigger;
        head = 0;
    }

    /** Writes the first entry into {@code ring} (which has room) and removes it. */
    void moveFirstInto(IoUringRing ring) {
        int at = head * WORDS;
        long packed = words[at];
        long lengths = words[at + 2];
        ring.writeEntry((int) (packed & 0xFF), (int) (packed >>> 8 & 0xFF), (int) (packed >>> 16 & 0xFFFF),
                (int) (packed >>> 32), words[at + 1], (int) lengths, words[at + 3], (int) (lengths >>> 32),
                words[at + 4]);
        head = (head + 1) % (words.length / WORDS);
        size--;
    }
}
