package dev.proactor.bench.http;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A temporary document root holding one file of pseudo-random bytes per size. The directory and
 * the files are readable by everyone, because nginx workers run as an unprivileged user.
 * {@link #close()} deletes it.
 */
public final class BenchDocRoot implements AutoCloseable {
    private static final long SEED = 0x5eed_f11eL;

    private final Path dir;

    private BenchDocRoot(Path dir) {
        this.dir = dir;
    }

    /**
     * Creates the directory and the files.
     *
     * @param sizes the sizes
     * @return the document root
     * @throws IOException when a file cannot be written
     */
    public static BenchDocRoot create(List<FileSize> sizes) throws IOException {
        Path dir = TempDirs.create("proactor-http-bench-root");
        BenchDocRoot root = new BenchDocRoot(dir);
        try {
            for (FileSize s : sizes) {
                root.write(s);
            }
        } catch (IOException | RuntimeException e) {
            try {
                root.close();
            } catch (IOException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
        return root;
    }

    private void write(FileSize size) throws IOException {
        Path file = dir.resolve(size.fileName());
        SplittableRandom random = new SplittableRandom(SEED ^ size.bytes());
        byte[] chunk = new byte[64 * 1024];
        try (OutputStream out = Files.newOutputStream(file)) {
            for (long left = size.bytes(); left > 0; left -= chunk.length) {
                random.nextBytes(chunk);
                out.write(chunk, 0, (int) Math.min(chunk.length, left));
            }
        }
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    }

    /**
     * The directory.
     *
     * @return its path
     */
    public Path dir() {
        return dir;
    }

    /**
     * The content of a file, to check a response against.
     *
     * @param size which file
     * @return its bytes
     * @throws IOException when it cannot be read
     */
    public byte[] content(FileSize size) throws IOException {
        return Files.readAllBytes(dir.resolve(size.fileName()));
    }

    /**
     * Deletes the directory and its files.
     *
     * @throws IOException when something cannot be deleted
     */
    @Override
    public void close() throws IOException {
        TempDirs.delete(dir);
    }
}
