package dev.proactor.examples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FileCopyTest {

    @TempDir
    Path tmp;

    @ParameterizedTest
    @CsvSource({"65536, 4", "100000, 1", "1048576, 16", "4096, 64"})
    void copiesARandomFileByteForByte(int block, int depth) throws Exception {
        byte[] data = new byte[5 * 1024 * 1024 + 321];
        new Random(block ^ depth).nextBytes(data);
        Path source = Files.write(tmp.resolve("source.bin"), data);
        Path target = tmp.resolve("target.bin");
        Files.writeString(target, "old content, longer than nothing; must be truncated".repeat(1000));
        FileCopy.Result r = new FileCopy(source, target, block, depth).run();
        assertEquals(data.length, r.bytes());
        assertArrayEquals(data, Files.readAllBytes(target));
    }

    @Test
    void copiesAnEmptyFile() throws Exception {
        Path source = Files.write(tmp.resolve("empty"), new byte[0]);
        Path target = Files.writeString(tmp.resolve("target"), "not empty");
        assertEquals(0, new FileCopy(source, target, 4096, 4).run().bytes());
        assertEquals(0, Files.size(target));
    }

    @Test
    void failsForAMissingSource() {
        assertThrows(NoSuchFileException.class,
                () -> new FileCopy(tmp.resolve("missing"), tmp.resolve("target"), 4096, 4).run());
    }

    @Test
    void readsAPseudoFileToItsEndDespiteSizeZero() throws Exception {
        Path status = Path.of("/proc/self/status");
        assumeTrue(Files.isReadable(status) && Files.size(status) == 0, "needs Linux /proc reporting size 0");
        Path target = tmp.resolve("status");
        FileCopy.Result r = new FileCopy(status, target, 64, 3).run();
        assertTrue(r.bytes() > 0, "copied " + r.bytes());
        assertTrue(Files.readString(target).startsWith("Name:"), Files.readString(target));
    }

    @Test
    void keepsHolesAsHoles() throws Exception {
        Path source = tmp.resolve("sparse");
        byte[] head = "head".repeat(1000).getBytes(StandardCharsets.US_ASCII);
        try (RandomAccessFile f = new RandomAccessFile(source.toFile(), "rw")) {
            f.write(head);
            f.seek(32L << 20);
            f.write(head);
            f.setLength((64L << 20) + 7); // ends in a hole
        }
        long sourceBlocks = allocatedBlocks(source);
        assumeTrue(sourceBlocks >= 0 && sourceBlocks * 512 < (1L << 20), "file system without holes");
        Path target = tmp.resolve("copy");
        FileCopy.Result r = new FileCopy(source, target, 65536, 4).run();
        assertEquals(Files.size(source), r.bytes());
        assertEquals(Files.size(source), Files.size(target));
        assertEquals(-1, Files.mismatch(source, target));
        long targetBlocks = allocatedBlocks(target);
        assertTrue(targetBlocks * 512 < (2L << 20), "target allocates " + targetBlocks + " blocks of 512 bytes");
    }

    @Test
    void saysWhyTheTargetCannotBeCreated() throws Exception {
        Path source = Files.writeString(tmp.resolve("in"), "x");
        NoSuchFileException e = assertThrows(NoSuchFileException.class,
                () -> new FileCopy(source, tmp.resolve("no-dir/out"), 4096, 4).run());
        assertTrue(IoErrors.describe(e).endsWith("no-dir/out: no such file or directory"), IoErrors.describe(e));
    }

    /** Blocks of 512 bytes the file occupies on disk ({@code stat -c %b}), or -1 if stat cannot say. */
    private static long allocatedBlocks(Path file) throws Exception {
        Process p;
        try {
            p = new ProcessBuilder("stat", "-c", "%b", file.toString()).redirectErrorStream(true).start();
        } catch (IOException e) {
            return -1;
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
        return p.waitFor() == 0 && out.matches("\\d+") ? Long.parseLong(out) : -1;
    }
}
