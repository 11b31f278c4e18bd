package dev.proactor.bench.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** Medians, percentiles and ratios of the TLS echo report. */
class TlsEchoReportTest {

    private static TlsEchoResult result(String server, String transport, Mode mode, int run, long mib,
                                        long... latencies) {
        Histogram h = new Histogram(3);
        for (long l : latencies) {
            h.recordValue(l);
        }
        // the server used half a core; the client a whole one, except in run 2 (unknown); the client got one
        // plaintext chunk per 8 blocks
        return new TlsEchoResult(server, transport, mode, run, 1024, mib * 1024 * 1024, 1.0, h, "TLS_X", 0.5,
                run == 2 ? Double.NaN : 1.0, mib * 1024 / 8);
    }

    @Test
    void medianOfRunsAndRatioAgainstNettyOfTheSameTransport() {
        TlsEchoReport report = new TlsEchoReport(List.of(
                result("proactor-tls", "epoll", Mode.WINDOW, 1, 300),
                result("proactor-tls", "epoll", Mode.WINDOW, 2, 100),
                result("proactor-tls", "epoll", Mode.WINDOW, 3, 200),
                result("netty-tls-epoll", "epoll", Mode.WINDOW, 1, 100),
                result("netty-tls-nio", "nio", Mode.WINDOW, 1, 50),
                result("proactor-tls", "nio", Mode.PING_PONG, 1, 10, 100, 200, 300)), List.of("a note"));
        String csv = report.summaryCsv();
        assertTrue(csv.startsWith(TlsEchoReport.SUMMARY_HEADER + "\n"), csv);
        // 0.5 s of server CPU over 204 800 blocks: 2.441 us each (the median run's)
        assertTrue(csv.contains("proactor-tls,epoll,window,3,200.000,204800.0,,,2.000,TLS_X,50.0,2.441,"), csv);
        assertTrue(csv.contains("netty-tls-epoll,epoll,window,1,100.000,102400.0,,,1.000,TLS_X,50.0,4.883,100.0"),
                csv);
        // no netty-tls-nio ping-pong row: no ratio
        assertTrue(csv.contains("proactor-tls,nio,ping-pong,1,10.000,10240.0,200,300,,TLS_X,50.0,48.828,100.0"),
                csv);
        String md = report.markdown("title");
        assertTrue(md.contains("| proactor-tls | epoll | window | 200.0 | 204800 | – | – | 2.00x | 50 | 2.44 |"), md);
        assertTrue(md.contains("- a note"), md);
        assertEquals(7, report.runsCsv().lines().count());
        assertTrue(report.runsCsv().contains("proactor-tls,epoll,window,2,1024,104857600,1.000,100.000,102400.0,,,"
                + "TLS_X,50.0,4.883,,0.125\n"), report.runsCsv()); // the unknown client CPU is an empty field
    }

    @Test
    void medianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
        assertEquals(2.5, TlsEchoReport.median(new double[] {4, 1, 3, 2}));
    }
}
