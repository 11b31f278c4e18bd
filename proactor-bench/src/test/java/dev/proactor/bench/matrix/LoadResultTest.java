package dev.proactor.bench.matrix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LoadResultTest {
    /** A line as loadgen prints it (copied from a run against c-epoll). */
    static final String LINE = "RESULT bytes_per_s=64745581 msgs_per_s=126456 p50_us=18.43 p90_us=22.66 p99_us=370.69 "
            + "p999_us=2637.82 max_us=15914.86 mean_us=31.60 samples=127241 sessions=4 block=512 window=0 threads=1 "
            + "seconds=1.006 coalesce=0 cpu_pct=29.8 server_cpu_pct=28.8 server_user_cpu_pct=3.1 other_user_cpu_pct=119.6 "
            + "session_msgs_min=31806 session_msgs_median=31810.0 session_msgs_max=31812 "
            + "session_msgs_max_over_min=1.000 idle_sessions=0";

    /** The same without the fairness fields: what the generator printed before them. */
    static final String OLD_LINE = "RESULT bytes_per_s=64745581 msgs_per_s=126456 p50_us=18.43 p90_us=22.66 "
            + "p99_us=370.69 p999_us=2637.82 max_us=15914.86 mean_us=31.60 samples=127241 sessions=4 block=512 "
            + "window=0 threads=1 seconds=1.006 coalesce=0 cpu_pct=29.8 server_cpu_pct=-1.0 other_user_cpu_pct=-1.0";

    @Test
    void parsesEveryField() {
        LoadResult r = LoadResult.parse(LINE);
        assertEquals(64745581, r.bytesPerS());
        assertEquals(126456, r.msgsPerS());
        assertEquals(18.43, r.p50Us());
        assertEquals(370.69, r.p99Us());
        assertEquals(2637.82, r.p999Us());
        assertEquals(29.8, r.clientCpuPct());
        assertEquals(28.8, r.serverCpuPct());
        assertEquals(3.1, r.serverUserCpuPct());
        assertEquals(119.6, r.otherCpuPct());
        assertTrue(r.otherWorkRan());
        assertEquals(new SessionFairness(31806, 31810, 31812, 1.0, 0), r.fairness());
    }

    @Test
    void minZeroIsAnInfiniteRatio() {
        LoadResult r = LoadResult.parse(LINE.replace("session_msgs_min=31806", "session_msgs_min=0")
                .replace("session_msgs_max_over_min=1.000", "session_msgs_max_over_min=inf")
                .replace("idle_sessions=0", "idle_sessions=3"));
        SessionFairness f = r.fairness();
        assertEquals(0, f.min());
        assertEquals(Double.POSITIVE_INFINITY, f.maxOverMin());
        assertEquals(3, f.idle());
        assertEquals("inf (3 idle)", f.ratioCell());
    }

    @Test
    void anOlderGeneratorHasNoFairness() {
        LoadResult r = LoadResult.parse(OLD_LINE);
        assertFalse(r.fairness().known());
        assertEquals("-", r.fairness().ratioCell());
        assertTrue(Double.isNaN(r.serverCpuPct()));
        assertTrue(Double.isNaN(r.serverUserCpuPct()));
        assertTrue(Double.isNaN(r.otherCpuPct()));
        assertFalse(r.otherWorkRan());
    }

    @Test
    void rejectsPartialOrMalformedFairness() {
        assertThrows(IllegalArgumentException.class,
                () -> LoadResult.parse(LINE.replace(" idle_sessions=0", "")));
        assertThrows(IllegalArgumentException.class,
                () -> LoadResult.parse(LINE.replace("session_msgs_max_over_min=1.000", "session_msgs_max_over_min=x")));
        assertThrows(IllegalArgumentException.class,
                () -> LoadResult.parse(LINE.replace("idle_sessions=0", "idle_sessions=-1")));
        assertThrows(IllegalArgumentException.class, () -> LoadResult.parse(LINE.replace(" p99_us=370.69", "")));
        assertThrows(IllegalArgumentException.class, () -> LoadResult.parse("OK " + LINE));
    }

    @Test
    void theOfferedRateIsTheLastFieldAndOptional() {
        assertEquals(20000, LoadResult.parse(LINE + " offered_msgs_per_s=20000").offeredMsgsPerS());
        assertEquals(0, LoadResult.parse(LINE + " offered_msgs_per_s=0").offeredMsgsPerS(), "unpaced");
        assertTrue(Double.isNaN(LoadResult.parse(LINE).offeredMsgsPerS()), "an older generator");
    }

    @Test
    void ignoresUnknownFields() {
        LoadResult r = LoadResult.parse(LINE + " future_field=7");
        assertEquals(31812, r.fairness().max());
    }
}
