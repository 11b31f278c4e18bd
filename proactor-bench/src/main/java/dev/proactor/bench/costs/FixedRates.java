package dev.proactor.bench.costs;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The offered rate of each row's fixed-rate runs: the one given on the command line, or else
 * {@link #DEFAULT_FRACTION} of the lowest saturation msgs/s measured for that row in round 1 (so that every server
 * can serve it); the same rate for every server of the row in every round.
 */
public final class FixedRates {
    /** Share of the lowest round-1 saturation rate the fixed rate defaults to. */
    public static final double DEFAULT_FRACTION = 0.5;

    private final long given;
    private final Map<Integer, Long> byRow = new HashMap<>();

    /**
     * Creates the rates.
     *
     * @param given the rate for every row, or 0 to derive it from round 1
     */
    public FixedRates(long given) {
        this.given = given;
    }

    /**
     * Whether the rate comes from the command line.
     *
     * @return true when given
     */
    public boolean given() {
        return given > 0;
    }

    /**
     * The default rate from the round-1 saturation results of a row.
     *
     * @param saturations the achieved msgs/s of round 1's saturation runs of the row (failed runs left out)
     * @return half of the lowest, rounded down to a whole message per second, at least 1; empty when none ran
     */
    public static OptionalLong fromRoundOne(List<Double> saturations) {
        return saturations.stream().mapToDouble(Double::doubleValue).min()
                .stream().mapToLong(min -> Math.max(1, (long) Math.floor(min * DEFAULT_FRACTION))).findFirst();
    }

    /**
     * Fixes a row's rate once its round-1 saturation runs are done (a given rate is kept).
     *
     * @param rowIndex    the row
     * @param saturations round 1's achieved msgs/s for the row
     * @return the row's rate, empty when it has none (no saturation run succeeded)
     */
    public OptionalLong settle(int rowIndex, List<Double> saturations) {
        if (given > 0) {
            return OptionalLong.of(given);
        }
        Long known = byRow.get(rowIndex);
        if (known != null) {
            return OptionalLong.of(known);
        }
        OptionalLong r = fromRoundOne(saturations);
        r.ifPresent(v -> byRow.put(rowIndex, v));
        return r;
    }

    /**
     * A row's rate, once settled.
     *
     * @param rowIndex the row
     * @return the rate, empty before round 1's saturation runs of the row (or when none succeeded)
     */
    public OptionalLong of(int rowIndex) {
        if (given > 0) {
            return OptionalLong.of(given);
        }
        Long r = byRow.get(rowIndex);
        return r == null ? OptionalLong.empty() : OptionalLong.of(r);
    }
}
