package dev.proactor.bench.file;

/**
 * One measured row: what ran, and what it did during the measured seconds.
 *
 * @param row      row name ({@code threadpool}, {@code linux-aio}, {@code io_uring}, {@code jdk-afc},
 *                 {@code fio-libaio}, {@code fio-io_uring}, {@code nio2-afc-*}, {@code vt-fc-*})
 * @param workload access pattern
 * @param depth    reads kept in flight
 * @param direct   whether the file was read with {@code O_DIRECT}
 * @param ops      reads completed in the measured window
 * @param bytes    bytes read in the measured window
 * @param seconds  length of the measured window
 * @param p50Us    median latency of one read, microseconds
 * @param p99Us    99th percentile latency, microseconds
 * @param note     what the row measures or why it differs (may be empty)
 * @param peakThreads   peak OS threads of the row's JVM during the window (0: not measured, fio)
 * @param peakIoWorkers peak io_uring kernel workers ({@code iou-wrk}) of that JVM during the window
 */
public record RowResult(String row, Workload workload, int depth, boolean direct, long ops, long bytes,
                        double seconds, double p50Us, double p99Us, String note, int peakThreads,
                        int peakIoWorkers) {

    /** A row without thread counts (fio, a failed row). */
    public RowResult(String row, Workload workload, int depth, boolean direct, long ops, long bytes, double seconds,
                     double p50Us, double p99Us, String note) {
        this(row, workload, depth, direct, ops, bytes, seconds, p50Us, p99Us, note, 0, 0);
    }

    /** Reads per second. */
    public double iops() {
        return seconds > 0 ? ops / seconds : 0;
    }

    /** Throughput in MiB/s. */
    public double mibPerSecond() {
        return seconds > 0 ? bytes / 1048576.0 / seconds : 0;
    }

    /**
     * The JDK row a row of the JDK's channel types compares with: the virtual-thread {@code FileChannel} rows with
     * {@code vt-fc-jdk}, the {@code AsynchronousFileChannel} rows with {@code nio2-afc-jdk}; else null.
     */
    static String jdkCounterpart(String row) {
        if (row.startsWith("vt-fc-") && !row.equals("vt-fc-jdk")) {
            return "vt-fc-jdk";
        }
        if (row.startsWith("nio2-afc-") && !row.equals("nio2-afc-jdk")) {
            return "nio2-afc-jdk";
        }
        return null;
    }

    /** The engine a fio row compares with: {@code linux-aio} for libaio, {@code io_uring} for io_uring. */
    static String fioCounterpart(String row) {
        return switch (row) {
            case "linux-aio" -> "fio-libaio";
            case "io_uring" -> "fio-io_uring";
            default -> null;
        };
    }
}
