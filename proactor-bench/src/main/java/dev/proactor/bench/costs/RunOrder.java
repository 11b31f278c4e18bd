package dev.proactor.bench.costs;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The order of the runs: round by round; in a round, row by row; in a row, every server unpaced (saturation),
 * then every server at the row's fixed rate (so that round 1 knows every saturation before its first fixed run);
 * the servers' order rotates by one each round, so no server always runs first or right after the same one.
 */
public final class RunOrder {
    private RunOrder() {
    }

    /**
     * One run of the plan.
     *
     * @param round    1-based round
     * @param rowIndex 0-based row
     * @param mode     saturation or fixed
     * @param server   server name
     */
    public record Step(int round, int rowIndex, Mode mode, String server) {
    }

    /**
     * The servers of a round.
     *
     * @param servers the servers in their given order
     * @param round   1-based round
     * @return the order rotated left by {@code round - 1}
     */
    public static List<String> serversOf(List<String> servers, int round) {
        List<String> out = new ArrayList<>(servers);
        if (!out.isEmpty()) {
            Collections.rotate(out, -((round - 1) % out.size()));
        }
        return out;
    }

    /**
     * Every run, in order.
     *
     * @param rounds  how many rounds
     * @param rows    how many rows
     * @param servers the servers in their given order
     * @return the steps
     */
    public static List<Step> plan(int rounds, int rows, List<String> servers) {
        List<Step> steps = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            for (int row = 0; row < rows; row++) {
                for (Mode mode : Mode.values()) {
                    for (String server : serversOf(servers, round)) {
                        steps.add(new Step(round, row, mode, server));
                    }
                }
            }
        }
        return steps;
    }
}
