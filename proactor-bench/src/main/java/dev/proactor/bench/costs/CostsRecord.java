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
    /** Share of the offered rate below which a fixed-rate run counts as saturated. */
    public static final double SATURATED_BELOW = 0.97;

    /**
     * Whether a fixed-rate run fell short of its offered rate (the server, or the client, could not keep up: its
     * costs are then those of a saturated server, not of the fixed load).
     *
     * @return true for a fixed-rate run that achieved less than 97 % of the offered rate
     */
    public boolean saturated() {
        return mode == Mode.FIXED && load.msgsPerS() < SATURATED_BELOW * offered;
    }
}
