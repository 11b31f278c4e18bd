package dev.proactor.bench.costs;

import dev.proactor.bench.matrix.LoadResult;
import dev.proactor.bench.matrix.Row;

/**
 * One measured run.
 *
 * @param round   1-based round
 * @param rowIndex 0-based row
 * @param row     the workload row
 * @param mode    saturation or fixed rate
 * @param server  server name
 * @param offered offered messages per second (0 for saturation)
 * @param load    the load generator's result
 * @param costs   the counted costs per message
 */
public record CostsRecord(int round, int rowIndex, Row row, Mode mode, String server, double offered,
                          LoadResult load, RunCosts costs) {
    /** Share of the offered rate below which a fixed-rate run did not hold the rate. */
    public static final double SATURATED_BELOW = 0.97;
    /**
     * Share of the offered rate above which a fixed-rate run did not hold it either: its sessions fell behind their
     * schedules and caught up inside the window (the load generator lets each catch up one window), so the server
     * worked through a backlog in batches, not at the fixed load.
     */
    public static final double CAUGHT_UP_ABOVE = 1.03;

    /**
     * The server's user-mode CPU per message, nanoseconds: the program's own share of {@link RunCosts#cpuNsPerMsg()}
     * (the rest is the kernel's work on its behalf: system calls, io_uring requests, the network stack). perf counts
     * the CPU; its user-mode share is the load generator's ({@code /proc/PID/stat}, user over user + system time,
     * 10 ms ticks, over the generator's measured window, which holds perf's).
     *
     * @return nanoseconds per message, NaN when the generator did not measure the server's CPU
     */
    public double userCpuNsPerMsg() {
        double all = load.serverCpuPct();
        double user = load.serverUserCpuPct();
        return all > 0 && user >= 0 ? costs.cpuNsPerMsg() * Math.min(1, user / all) : Double.NaN;
    }

    /**
     * Whether a fixed-rate run did not hold its offered rate: it fell short (the server, or the client, could not
     * keep up), or it ran above it (it had fallen behind and caught up). Its costs are then those of a server with a
     * backlog, not of the fixed load, and the headline leaves it out.
     *
     * @return true for a fixed-rate run outside 97-103 % of the offered rate
     */
    public boolean saturated() {
        return mode == Mode.FIXED
                && (load.msgsPerS() < SATURATED_BELOW * offered || load.msgsPerS() > CAUGHT_UP_ABOVE * offered);
    }
}
