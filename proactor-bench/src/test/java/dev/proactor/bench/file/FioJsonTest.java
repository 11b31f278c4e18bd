package dev.proactor.bench.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class FioJsonTest {

    /** Trimmed from fio 3.33's --output-format=json, with a warning line before the document as fio prints it. */
    private static final String OUTPUT = """
            fio: file hash not empty on exit
            {
              "fio version" : "fio-3.33",
              "timestamp" : 1700000000,
              "global options" : { "rw" : "randread", "bs" : "4096" },
              "jobs" : [
                {
                  "jobname" : "file-bench",
                  "error" : 0,
                  "read" : {
                    "io_bytes" : 409600000,
                    "io_kbytes" : 400000,
                    "bw_bytes" : 40960000,
                    "bw" : 40000,
                    "iops" : 10000.5,
                    "runtime" : 10000,
                    "total_ios" : 100000,
                    "short_ios" : 0,
                    "drop_ios" : 0,
                    "slat_ns" : { "min" : 1, "max" : 2, "mean" : 1.5 },
                    "clat_ns" : {
                      "min" : 1000, "max" : 900000, "mean" : 3000.25, "stddev" : 1.0e2,
                      "N" : 100000,
                      "percentile" : {
                        "1.000000" : 1500,
                        "50.000000" : 2992,
                        "99.000000" : 10048,
                        "99.990000" : 500000
                      }
                    },
                    "lat_ns" : { "min" : 1100, "max" : 900100, "mean" : 3100.0 },
                    "bw_agg" : 100.000000,
                    "note" : "escaped \\"quote\\" and \\u00b5"
                  },
                  "write" : { "io_bytes" : 0, "iops" : 0.0 },
                  "latency_target" : 0,
                  "flags" : [true, false, null, -1]
                }
              ]
            }
            """;

    @Test
    void readsTheReadSideOfTheFirstJob() {
        FioJson.FioRead r = FioJson.parseRead(OUTPUT);
        assertEquals(100000, r.ios());
        assertEquals(409600000L, r.bytes());
        assertEquals(10.0, r.seconds());
        assertEquals(10000.5, r.iops());
        assertEquals(2.992, r.p50Us(), 1e-9);
        assertEquals(10.048, r.p99Us(), 1e-9);
    }

    @Test
    void rejectsOutputWithoutAReadSide() {
        assertThrows(IllegalArgumentException.class, () -> FioJson.parseRead("fio: engine libaio not loadable"));
        assertThrows(IllegalArgumentException.class, () -> FioJson.parseRead("{\"jobs\" : []}"));
        assertThrows(IllegalArgumentException.class, () -> FioJson.parseRead("{\"jobs\" : [{\"read\" : 3}]}"));
        assertThrows(IllegalArgumentException.class, () -> FioJson.parseRead("{\"jobs\" : [ {\"read\" : {"));
    }
}
