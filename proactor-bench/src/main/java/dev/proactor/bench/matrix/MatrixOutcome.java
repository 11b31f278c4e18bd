package dev.proactor.bench.matrix;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Everything a matrix run produced: measurements, skipped servers and failed runs. */
public final class MatrixOutcome {
    private final List<RunRecord> records = new ArrayList<>();
    private final Map<String, String> skipped = new LinkedHashMap<>();
    private final List<String> failures = new ArrayList<>();

    void add(RunRecord r) {
        records.add(r);
    }

    void skip(String server, String reason) {
        skipped.putIfAbsent(server, reason);
    }

    void fail(String what) {
        failures.add(what);
    }

    boolean isSkipped(String server) {
        return skipped.containsKey(server);
    }

    /**
     * All measurements in run order.
     *
     * @return the records
     */
    public List<RunRecord> records() {
        return Collections.unmodifiableList(records);
    }

    /**
     * Servers that were skipped, with the reason.
     *
     * @return server to reason
     */
    public Map<String, String> skipped() {
        return Collections.unmodifiableMap(skipped);
    }

    /**
     * Runs that failed, one description each.
     *
     * @return the failures
     */
    public List<String> failures() {
        return Collections.unmodifiableList(failures);
    }

    /**
     * Measurements of one server at one row.
     *
     * @param server server name
     * @param row    table point
     * @return its records
     */
    public List<LoadResult> results(String server, Row row) {
        List<LoadResult> out = new ArrayList<>();
        for (RunRecord r : records) {
            if (r.server().equals(server) && r.row().equals(row)) {
                out.add(r.result());
            }
        }
        return out;
    }
}
