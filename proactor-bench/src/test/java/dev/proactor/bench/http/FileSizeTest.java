package dev.proactor.bench.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.proactor.bench.harness.UsageException;
import org.junit.jupiter.api.Test;

class FileSizeTest {

    @Test
    void parsesSuffixes() throws UsageException {
        assertEquals(new FileSize("1k", 1024), FileSize.parse("1k"));
        assertEquals(new FileSize("64k", 65536), FileSize.parse("64K"));
        assertEquals(new FileSize("1m", 1 << 20), FileSize.parse("1m"));
        assertEquals(new FileSize("100", 100), FileSize.parse("100"));
        assertEquals("/1m.bin", FileSize.parse("1m").path());
    }

    @Test
    void rejectsNonsense() {
        assertThrows(UsageException.class, () -> FileSize.parse("2x"));
        assertThrows(UsageException.class, () -> FileSize.parse("-1k"));
        assertThrows(UsageException.class, () -> FileSize.parse("2048m"));
    }
}
