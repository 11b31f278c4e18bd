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
    void asynchronousFileChannelRowsRunOnTheJdksAndOurs() throws Exception {
        Path file = dir.resolve("f.dat");
        long size = TestFile.prepare(file, 1L << 20);
        for (String kind : new String[] {"afc-jdk", "afc-proactor"}) {
            String line = RowMain.runRow(new String[] {kind, file.toString(), Long.toString(size), "randread", "8",
                "0", "1", "off", "2"});
            RowResult r = RowLauncher.parse("nio2-" + kind, Workload.RANDREAD, 8, line);
            assertTrue(r.ops() > 0, line);
            assertTrue(r.peakThreads() > 0, "the OS threads were sampled: " + line);
            assertTrue(r.note().startsWith("engine AsynchronousFileChannel/"), r.note());
        }
    }

    @Test
    void virtualThreadRowsNeedJdk21AndRunThere() throws Exception {
        Path file = dir.resolve("f.dat");
        long size = TestFile.prepare(file, 1L << 20);
        for (String kind : new String[] {"vt-jdk", "vt-proactor"}) {
            String[] args = {kind, file.toString(), Long.toString(size), "randread", "16", "0", "1", "off", "2"};
            if (!VirtualThreads.available()) {
                UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                        () -> RowMain.runRow(args));
                assertTrue(e.getMessage().contains("JDK 21+"), e.getMessage());
                continue;
            }
            RowResult r = RowLauncher.parse("vt-fc-" + kind, Workload.RANDREAD, 16, RowMain.runRow(args));
            assertTrue(r.ops() > 0);
        }
        RowResult skipped = new RowLauncher(file, size, 0, 1, DirectMode.OFF, 2, dir, null, 0)
                .run("vt-fc-jdk", Workload.RANDREAD, 16);
        assertEquals(0, skipped.ops());
        assertTrue(skipped.note().contains("--vt-java"), skipped.note());
    }

    @Test
    void rowsOfTheJdksChannelTypesCompareWithTheJdksRow() {
        RowResult jdk = new RowResult("vt-fc-jdk", Workload.RANDREAD, 1000, false, 1000, 4096000, 1, 10, 20, "",
                260, 0);
        RowResult ours = new RowResult("vt-fc-io_uring", Workload.RANDREAD, 1000, false, 1600, 6553600, 1, 8, 15,
                "", 12, 3);
        RowResult afc = new RowResult("nio2-afc-linux-aio", Workload.RANDREAD, 32, false, 900, 3686400, 1, 8, 15,
                "", 12, 0);
        FileBenchReport report = new FileBenchReport(List.of(jdk, ours, afc));
        assertEquals(1.6, report.vsJdk(ours), 1e-9);
        assertTrue(Double.isNaN(report.vsJdk(jdk)));
        assertTrue(Double.isNaN(report.vsJdk(afc)), "no nio2-afc-jdk row to compare with");
        assertTrue(report.markdown().contains("| 1.60x | 12 (3 iou-wrk) |"), report.markdown());
        assertTrue(report.csv().contains(",1.600,12,3,"), report.csv());
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
