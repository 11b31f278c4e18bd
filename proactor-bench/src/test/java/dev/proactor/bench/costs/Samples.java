package dev.proactor.bench.costs;

import dev.proactor.bench.matrix.LoadResult;
import dev.proactor.bench.matrix.Row;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/** Test data: the committed perf sample and made-up runs. */
final class Samples {
    /**
     * {@code perf stat -x, --per-thread} of {@code uring_echo} (one thread serving, its idle main thread
     * {@code <not counted>}) for 1 s at 8000 msgs/s offered over 4 sessions, every event of the command.
     */
    static final String URING = "perf-stat-per-thread-uring_echo.txt";
    /** The same of the {@code netty-io_uring} server (a JVM: many threads, most idle) at saturation, 2 s. */
    static final String NETTY = "perf-stat-per-thread-netty-io_uring.txt";

    private Samples() {
    }

    static List<String> lines(String resource) throws IOException {
        try (InputStream in = Samples.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException("missing test resource " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }

    static PerfSample uring() throws IOException {
        return PerfSample.parse(lines(URING), PerfEvents.wanted());
    }

    static LoadResult load(double msgsPerS, double offered) {
        return LoadResult.parse("RESULT bytes_per_s=1 msgs_per_s=" + msgsPerS + " p50_us=20 p90_us=30 p99_us=40 "
                + "p999_us=50 max_us=60 mean_us=25 samples=1 sessions=1 block=1024 window=0 threads=1 seconds=4 "
                + "coalesce=0 cpu_pct=50 server_cpu_pct=60 server_user_cpu_pct=20 other_user_cpu_pct=0 "
                + "offered_msgs_per_s=" + offered);
    }

    static Row row(int sessions) {
        return new Row(sessions, 1, 1024, 0, "0", 0);
    }

    /** A run whose CPU per message is {@code cpuNs} and system calls per message {@code syscalls}. */
    static CostsRecord run(int round, int rowIndex, Mode mode, String server, double cpuNs, double syscalls,
                           double msgsPerS, double offered) {
        RunCosts c = new RunCosts(msgsPerS * 3, cpuNs, syscalls, Map.of("recvfrom", syscalls / 2,
                "sendto", syscalls / 2), 0.5, Map.of("proactor-io", 0.4, "java", 0.1), Double.NaN,
                Double.NaN);
        return new CostsRecord(round, rowIndex, row(rowIndex == 0 ? 1 : 100), mode, server, offered,
                load(msgsPerS, offered), c);
    }
}
