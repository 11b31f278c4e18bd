package dev.proactor.conformance;

import java.nio.ByteBuffer;

/**
 * The pseudo-random byte stream of one soak connection: the byte at any offset is a pure function of the
 * connection's seed and the offset, so the sender can generate from any offset and the receiver can check
 * every echoed byte against the byte sent at that offset, without keeping a copy.
 */
final class SoakPattern {

    private static final long GOLDEN = 0x9E3779B97F4A7C15L;

    private SoakPattern() {
    }

    /** SplitMix64's finaliser. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    private static long word(long seed, long index) {
        return mix(seed + index * GOLDEN);
    }

    /** The byte at {@code offset} of the stream of {@code seed}. */
    static byte at(long seed, long offset) {
        return (byte) (word(seed, offset >>> 3) >>> ((offset & 7) << 3));
    }

    /** Puts {@code len} bytes of the stream, from {@code offset}, into {@code dst} at its position. */
    static void fill(long seed, long offset, ByteBuffer dst, int len) {
        long index = -1;
        long w = 0;
        for (int i = 0; i < len; i++) {
            long off = offset + i;
            long wi = off >>> 3;
            if (wi != index) {
                index = wi;
                w = word(seed, wi);
            }
            dst.put((byte) (w >>> ((off & 7) << 3)));
        }
    }

    /**
     * Compares the remaining bytes of {@code src} with the stream from {@code offset} (consuming them).
     *
     * @return the offset of the first byte that differs, or -1 if all are equal; {@code mismatches[0]} is
     *         increased by the number of differing bytes
     */
    static long verify(long seed, long offset, ByteBuffer src, long[] mismatches) {
        long first = -1;
        long index = -1;
        long w = 0;
        int n = src.remaining();
        for (int i = 0; i < n; i++) {
            long off = offset + i;
            long wi = off >>> 3;
            if (wi != index) {
                index = wi;
                w = word(seed, wi);
            }
            if (src.get() != (byte) (w >>> ((off & 7) << 3))) {
                mismatches[0]++;
                if (first < 0) {
                    first = off;
                }
            }
        }
        return first;
    }

    /**
     * Describes corrupted bytes: the range that differs, and where in the stream (if anywhere within the bytes
     * sent) the first 16 wrong bytes come from, e.g. bytes of another offset sent again.
     */
    static String explain(long seed, long offset, ByteBuffer got, long sent) {
        int n = got.remaining();
        int first = -1;
        int last = -1;
        int base = got.position();
        for (int i = 0; i < n; i++) {
            if (got.get(base + i) != at(seed, offset + i)) {
                if (first < 0) {
                    first = i;
                }
                last = i;
            }
        }
        if (first < 0) {
            return "no byte differs";
        }
        int len = Math.min(16, n - first);
        StringBuilder b = new StringBuilder("differing bytes at offsets " + (offset + first) + ".." + (offset + last));
        long from = Math.max(0, offset - (4 << 20));
        long to = Math.min(sent, offset + (4 << 20));
        for (long o = from; o + len <= to; o++) {
            boolean match = true;
            for (int i = 0; i < len && match; i++) {
                match = got.get(base + first + i) == at(seed, o + i);
            }
            if (match) {
                return b + "; the wrong bytes equal the bytes sent at offset " + o + " (" + (o - offset - first)
                        + " from where they arrived)";
            }
        }
        b.append("; the wrong bytes are not found near there in the stream sent; first 16:");
        for (int i = 0; i < len; i++) {
            b.append(String.format(" %02x", got.get(base + first + i) & 0xff));
        }
        return b.toString();
    }
}
