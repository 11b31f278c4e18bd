package dev.proactor.bench.matrix;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsCsvTest {
    private static final Row ROW = new Row(100, 1, 512, 0, "0", 0);

    @Test
    void aLineHasAValueForEveryColumn() {
        String line = ResultsCsv.line(new RunRecord("netty-nio", ROW, 2, LoadResult.parse(LoadResultTest.LINE)), false);
        assertEquals(ResultsCsv.HEADER.split(",").length, line.split(",", -1).length);
        assertEquals("netty-nio,100,1,512,0,0,2,64745581,126456,18.43,370.69,2637.82,29.8,28.8,119.6,"
                + "31806,31810.0,31812,1.000,0,1", line);
    }

    @Test
    void minZeroAndUnknowns() {
        LoadResult starved = LoadResult.parse(LoadResultTest.LINE.replace("session_msgs_min=31806", "session_msgs_min=0")
                .replace("session_msgs_max_over_min=1.000", "session_msgs_max_over_min=inf")
                .replace("idle_sessions=0", "idle_sessions=7")
                .replace("other_user_cpu_pct=119.6", "other_user_cpu_pct=2.0"));
        assertEquals("netty-nio,100,1,512,0,0,1,64745581,126456,18.43,370.69,2637.82,29.8,28.8,2.0,"
                + "0,31810.0,31812,inf,7,0", ResultsCsv.line(new RunRecord("netty-nio", ROW, 1, starved), false));
        assertEquals("netty-nio,100,1,512,0,0,1,64745581,126456,18.43,370.69,2637.82,29.8,28.8,2.0,"
                + "0,31810.0,31812,inf,7,1", ResultsCsv.line(new RunRecord("netty-nio", ROW, 1, starved), true));
        LoadResult old = LoadResult.parse(LoadResultTest.OLD_LINE);
        assertEquals("c-epoll,100,1,512,0,0,1,64745581,126456,18.43,370.69,2637.82,29.8,,,,,,,,0",
                ResultsCsv.line(new RunRecord("c-epoll", ROW, 1, old), false));
    }

    @Test
    void writesTheHeaderThenAppends(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("results.csv");
        ResultsCsv csv = new ResultsCsv(file, false);
        csv.append(new RunRecord("netty-nio", ROW, 1, LoadResult.parse(LoadResultTest.LINE)));
        List<String> lines = Files.readAllLines(file);
        assertEquals(2, lines.size());
        assertEquals(ResultsCsv.HEADER, lines.get(0));
        assertEquals(lines.get(1), ResultsCsv.line(new RunRecord("netty-nio", ROW, 1,
                LoadResult.parse(LoadResultTest.LINE)), false));
    }
}
