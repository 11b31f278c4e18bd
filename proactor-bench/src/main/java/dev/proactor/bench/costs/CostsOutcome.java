package dev.proactor.bench.costs;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/** What a costs run produced so far: the measured runs, the failed ones, skipped servers, each row's fixed rate. */
public final class CostsOutcome {
    private final List<CostsRecord> records = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();
    private final Map<String, String> skipped = new LinkedHashMap<>();
    private final Map<Integer, Long> rates = new LinkedHashMap<>();

    /**
     * Adds a measured run.
     *
     * @param r the run
     */
    public void add(CostsRecord r) {
        records.add(r);
    }

    /**
     * Records a failed run.
     *
     * @param why what failed
     */
    public void fail(String why) {
        failures.add(why);
    }

    /**
     * Skips a server from now on.
     *
     * @param server its name
     * @param why    the reason
     */
    public void skip(String server, String why) {
        skipped.putIfAbsent(server, why);
    }

    /**
     * Whether a server is skipped.
     *
     * @param server its name
     * @return true when skipped
     */
    public boolean isSkipped(String server) {
        return skipped.containsKey(server);
    }

    /**
     * Notes a row's fixed rate.
     *
     * @param rowIndex the row
     * @param rate     messages per second
     */
    public void rate(int rowIndex, long rate) {
        rates.put(rowIndex, rate);
    }

    /**
     * A row's fixed rate.
     *
     * @param rowIndex the row
     * @return the rate, empty when the row has none yet
     */
    public OptionalLong rateOf(int rowIndex) {
        Long r = rates.get(rowIndex);
        return r == null ? OptionalLong.empty() : OptionalLong.of(r);
    }

    /**
     * The measured runs.
     *
     * @return the runs, in run order
     */
    public List<CostsRecord> records() {
        return Collections.unmodifiableList(records);
    }

    /**
     * The failed runs.
     *
     * @return their descriptions
     */
    public List<String> failures() {
        return Collections.unmodifiableList(failures);
    }

    /**
     * The skipped servers.
     *
     * @return name to reason
     */
    public Map<String, String> skipped() {
        return Collections.unmodifiableMap(skipped);
    }
}
