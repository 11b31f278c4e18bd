package dev.proactor.bench.matrix;

import dev.proactor.bench.harness.RepoLayout;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.bench.harness.UsageException;
import org.junit.jupiter.api.Test;

class MatrixOptionsTest {
    private static MatrixOptions parse(String... argv) throws UsageException {
        return MatrixOptions.parse(argv, RepoLayout.detect());
    }

    @Test
    void publishedTablesTakeThreeRuns() throws UsageException {
        assertEquals(3, parse("--full").runs());
        assertEquals(3, Preset.FULL.runs());
        MatrixOptions custom = parse("--sessions", "100,1000", "--window", "0");
        assertEquals(3, custom.runs());
        assertEquals(5, custom.warmup());
        assertEquals(2, custom.rows().size());
        assertEquals(5, parse("--full", "--runs", "5").runs());
    }

    @Test
    void theQuickPresetKeepsOneRun() throws UsageException {
        assertEquals(1, parse().runs());
        assertEquals(1, parse("--quick").runs());
        assertEquals(1, parse("--quick", "--sessions", "1,100").runs());
        assertEquals(2, parse("--quick").warmup());
    }

    @Test
    void bothPresetsHaveTheOneSessionRowWithTwoBlocksInFlight() throws UsageException {
        Row row = Preset.oneSessionTwoBlocks();
        assertEquals(1, row.sessions());
        assertEquals(1024, row.window());
        assertTrue(Preset.QUICK.rows().contains(row));
        assertTrue(Preset.FULL.rows().contains(row));
        assertTrue(parse("--quick").rows().contains(row));
    }

    @Test
    void disturbedAndNote() throws UsageException {
        MatrixOptions quiet = parse("--quick");
        assertFalse(quiet.disturbed());
        assertEquals("", quiet.note());
        MatrixOptions busy = parse("--quick", "--disturbed", "--note", "mvn test ran alongside");
        assertTrue(busy.disturbed());
        assertEquals("mvn test ran alongside", busy.note());
    }
}
