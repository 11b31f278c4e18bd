package dev.proactor.examples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
}
