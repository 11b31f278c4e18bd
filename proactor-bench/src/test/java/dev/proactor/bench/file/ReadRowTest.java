package dev.proactor.bench.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the rows for real on a tiny file on the default engine; asserts work was done and checked, never timing. */
class ReadRowTest {

    @TempDir
    Path dir;

    @Test
    void proactorRowKeepsReadsInFlightAndChecksEveryBlock() throws Exception {
        Path file = dir.resolve("f.dat");
        long size = TestFile.prepare(file, 2L << 20);
        for (int depth : new int[] {1, 4}) {
            for (Workload w : Workload.values()) {
                ProactorReadRow.Outcome o = new ProactorReadRow(file, size, w, depth, DirectMode.AUTO)
                        .measure(0.2, 1);
                ReadLoop.Measurement m = o.measurement();
                assertTrue(m.ops() > 0, w + " depth " + depth);
                assertEquals(m.ops() * w.blockSize(), m.bytes());
                assertTrue(m.checkedBytes() >= m.bytes(), "every read's blocks are checked");
                assertTrue(m.p99Us() >= m.p50Us());
            }
        }
    }

    @Test
    void jdkRowReadsTheFileToo() throws Exception {
        Path file = dir.resolve("f.dat");
        long size = TestFile.prepare(file, 1L << 20);
        ReadLoop.Measurement m = new JdkReadRow(file, size, Workload.RANDREAD, 4, false, 2).measure(0, 1);
        assertTrue(m.ops() > 0);
        assertTrue(m.checkedBytes() >= m.bytes());
    }

    @Test
    void childRowPrintsAParsableResult() throws Exception {
        Path file = dir.resolve("f.dat");
        long size = TestFile.prepare(file, 1L << 20);
        String line = RowMain.runRow(new String[] {"proactor", file.toString(), Long.toString(size), "randread",
            "2", "0", "1", "auto", "2"});
        RowResult r = RowLauncher.parse("threadpool", Workload.RANDREAD, 2, line);
        assertTrue(r.ops() > 0, line);
        assertTrue(r.note().startsWith("engine "), r.note());
    }

    @Test
    void aFileThatIsNotOursIsNeitherReusedNorOverwritten() throws Exception {
        Path foreign = dir.resolve("foreign.dat");
        Files.write(foreign, new byte[2 << 20]);
        IOException e = assertThrows(IOException.class, () -> TestFile.prepare(foreign, 1L << 20));
        assertTrue(e.getMessage().contains("not a file-bench file"), e.getMessage());
        assertEquals(2 << 20, Files.size(foreign));
        Path ours = dir.resolve("ours.dat");
        TestFile.prepare(ours, 2L << 20);
        assertEquals(2L << 20, TestFile.prepare(ours, 1L << 20), "a larger file of ours is reused whole");
        assertThrows(IOException.class, () -> TestFile.prepare(ours, 4L << 20));
    }

    @Test
    void reportRatiosCompareTheSameWorkloadAndDepth() {
        RowResult tp = new RowResult("threadpool", Workload.RANDREAD, 32, false, 1000, 4096000, 1, 10, 20, "");
        RowResult aio = new RowResult("linux-aio", Workload.RANDREAD, 32, true, 2000, 8192000, 1, 5, 9, "");
        RowResult fio = new RowResult("fio-libaio", Workload.RANDREAD, 32, true, 2500, 10240000, 1, 4, 8, "");
        RowResult other = new RowResult("threadpool", Workload.READ, 32, false, 10, 1310720, 1, 10, 20, "");
        FileBenchReport report = new FileBenchReport(List.of(tp, aio, fio, other));
        assertEquals(2.0, report.vsThreadPool(aio), 1e-9);
        assertEquals(0.8, report.vsFio(aio), 1e-9);
        assertTrue(Double.isNaN(report.vsFio(tp)));
        RowResult uring = new RowResult("io_uring", Workload.RANDREAD, 32, false, 3000, 12288000, 1, 5, 9, "");
        RowResult fioUring = new RowResult("fio-io_uring", Workload.RANDREAD, 32, true, 3000, 12288000, 1, 5, 9, "");
        assertTrue(Double.isNaN(new FileBenchReport(List.of(uring, fioUring)).vsFio(uring)),
                "buffered against O_DIRECT is no comparison");
        assertTrue(report.markdown().contains("| linux-aio | randread | 32 | yes | 2000 |"), report.markdown());
        assertTrue(report.csv().lines().count() == 5);
    }
}
