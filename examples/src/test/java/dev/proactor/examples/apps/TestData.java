package dev.proactor.examples.apps;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.SplittableRandom;

/** Reproducible random payloads and their SHA-256 digests, for byte-exact checks of what an application moved. */
final class TestData {

    private static final int CHUNK = 64 * 1024;

    private TestData() {
    }

    /** {@code size} pseudo-random bytes, the same for the same {@code seed}. */
    static byte[] bytes(long seed, int size) {
        byte[] b = new byte[size];
        fill(new SplittableRandom(seed), b, 0, size);
        return b;
    }

    private static void fill(SplittableRandom random, byte[] b, int from, int to) {
        int i = from;
        while (i + 8 <= to) {
            long v = random.nextLong();
            for (int k = 0; k < 8; k++) {
                b[i++] = (byte) (v >>> (8 * k));
            }
        }
        while (i < to) {
            b[i++] = (byte) random.nextInt(256);
        }
    }

    /**
     * Writes {@code size} pseudo-random bytes (seeded) to {@code out} in 64 KiB chunks and returns their SHA-256
     * in hex, without holding them all in memory.
     */
    static String write(long seed, long size, OutputStream out) throws IOException {
        SplittableRandom random = new SplittableRandom(seed);
        MessageDigest md = sha256();
        byte[] chunk = new byte[CHUNK];
        long left = size;
        while (left > 0) {
            int n = (int) Math.min(CHUNK, left);
            fill(random, chunk, 0, n);
            out.write(chunk, 0, n);
            md.update(chunk, 0, n);
            left -= n;
        }
        return HexFormat.of().formatHex(md.digest());
    }

    /** SHA-256 in hex of everything {@code in} yields, and how many bytes that was. */
    static Digest digest(InputStream in) throws IOException {
        MessageDigest md = sha256();
        byte[] chunk = new byte[CHUNK];
        long total = 0;
        for (int n; (n = in.read(chunk)) >= 0; ) {
            md.update(chunk, 0, n);
            total += n;
        }
        return new Digest(HexFormat.of().formatHex(md.digest()), total);
    }

    /** SHA-256 in hex and size of a file. */
    static Digest digest(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return digest(in);
        }
    }

    /** SHA-256 in hex of {@code b}. */
    static String sha256Hex(byte[] b) {
        return HexFormat.of().formatHex(sha256().digest(b));
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError("every JDK has SHA-256", e);
        }
    }

    /** A SHA-256 (hex) and the number of bytes it covers. */
    record Digest(String sha256, long size) {
    }
}
