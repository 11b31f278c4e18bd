package dev.proactor.bench.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.ParameterException;

class FileBenchCommandTest {

    @Test
    void defaultsCoverEveryRowWorkloadAndDepth() {
        FileBenchCommand c = FileBenchCommand.parse();
        assertEquals(4L << 30, c.size);
        assertEquals(FileBenchCommand.ALL_ROWS, c.rows);
        assertEquals(List.of(Workload.RANDREAD, Workload.READ), c.workloadList);
        assertEquals(List.of(1, 32, 128), c.depths);
        assertEquals(DirectMode.AUTO, c.direct);
        assertEquals(2, c.fileThreads);
    }

    @Test
    void parsesLists() {
        FileBenchCommand c = FileBenchCommand.parse("--size", "64m", "--rows", "linux-aio,fio-libaio",
                "--workloads", "read", "--depths", "4,8", "--direct", "ON", "--seconds", "3");
        assertEquals(64L << 20, c.size);
        assertEquals(List.of("linux-aio", "fio-libaio"), c.rows);
        assertEquals(List.of(Workload.READ), c.workloadList);
        assertEquals(List.of(4, 8), c.depths);
        assertEquals(DirectMode.ON, c.direct);
        assertEquals(3.0, c.seconds);
    }

    @Test
    void wrongValuesNameTheOption() {
        assertMessage("--size", "--size", "1000");
        assertMessage("--size", "--size", "lots");
        assertMessage("unknown row 'epoll'", "--rows", "threadpool,epoll");
        assertMessage("workload must be randread or read", "--workloads", "write");
        assertMessage("--depths", "--depths", "0");
        assertMessage("--seconds", "--seconds", "0");
        assertMessage("--warmup", "--warmup", "-1");
        assertMessage("--direct must be auto, on or off", "--direct", "maybe");
        assertMessage("--file-threads", "--file-threads", "0");
        assertThrows(ParameterException.class, () -> FileBenchCommand.parse("--bogus"));
    }

    @Test
    void sizesTakeSuffixes() {
        assertEquals(1L << 20, FileBenchCommand.parseSize("1m"));
        assertEquals(1L << 20, FileBenchCommand.parseSize("1024k"));
        assertEquals(3L << 30, FileBenchCommand.parseSize("3G"));
        assertEquals(2L << 20, FileBenchCommand.parseSize("2097152"));
    }

    private static void assertMessage(String expected, String... args) {
        ParameterException e = assertThrows(ParameterException.class, () -> FileBenchCommand.parse(args));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }
}
