package dev.proactor.bench.file;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The file the benchmark reads: every 4 KiB block starts with a tag (a magic number and the block's index) and is
 * filled with non-zero bytes, so the file has no holes (a hole reads without touching the disk) and every read can
 * be checked to have returned the block it asked for.
 *
 * <p>Creating writes 1 MiB pieces with a plain {@link FileChannel} and forces the file to disk once at the end.
 * An existing file is reused only if it is at least as large as asked and its tags check out at a few places, so
 * the benchmark never overwrites a file it did not make. Not thread-safe; used by the launching thread only.
 */
public final class TestFile {

    /** Size of a tagged block; also the alignment of every read. */
    public static final int BLOCK = 4096;

    static final long MAGIC = 0x50524f4143544f52L; // "PROACTOR"
    private static final int PIECE = 1 << 20;

    private TestFile() {
    }

    /**
     * Returns {@code path} ready for reading at least {@code size} bytes: reused when it is a benchmark file of that
     * size or larger, created when absent.
     *
     * @param path file to use
     * @param size bytes, a positive multiple of 1 MiB
     * @return the usable size (the existing file's size rounded down to 1 MiB, or {@code size})
     * @throws IOException if it cannot be written, or it exists and is not a benchmark file or too small
     */
    public static long prepare(Path path, long size) throws IOException {
        if (size <= 0 || size % PIECE != 0) {
            throw new IllegalArgumentException("size must be a positive multiple of 1 MiB, was " + size);
        }
        if (Files.exists(path)) {
            long existing = Files.size(path);
            if (existing < size || !looksLikeOurs(path, existing)) {
                throw new IOException(path + " exists but is not a file-bench file of at least " + size
                        + " bytes (it has " + existing + "); delete it or pass another --file");
            }
            return existing / PIECE * PIECE;
        }
        create(path, size);
        return size;
    }

    private static void create(Path path, long size) throws IOException {
        Path tmp = path.resolveSibling(path.getFileName() + ".partial");
        ByteBuffer piece = ByteBuffer.allocateDirect(PIECE).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < PIECE; i++) {
            piece.put(i, (byte) (0x41 + i % 26));
        }
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            for (long pos = 0; pos < size; pos += PIECE) {
                for (int b = 0; b < PIECE; b += BLOCK) {
                    piece.putLong(b, MAGIC);
                    piece.putLong(b + 8, (pos + b) / BLOCK);
                }
                piece.clear();
                while (piece.hasRemaining()) {
                    ch.write(piece, pos + piece.position());
                }
            }
            ch.force(false);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
        Files.move(tmp, path);
    }

    private static boolean looksLikeOurs(Path path, long size) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
        long blocks = size / BLOCK;
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            for (long block : new long[] {0, blocks / 2, blocks - 1}) {
                b.clear();
                while (b.hasRemaining() && ch.read(b, block * BLOCK + b.position()) > 0) {
                    // a short read continues where it stopped
                }
                if (b.hasRemaining() || !tagMatches(b, 0, block * BLOCK)) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Whether the block tag at {@code index} of {@code buf} (absolute, little-endian) belongs to file offset
     * {@code position}.
     */
    static boolean tagMatches(ByteBuffer buf, int index, long position) {
        return buf.getLong(index) == MAGIC && buf.getLong(index + 8) == position / BLOCK;
    }
}
