package dev.proactor.bench.http;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything the benchmark produced so far: measured runs, skipped servers with their reasons,
 * failed runs, problems noticed in runs that were measured anyway (wrk errors, server log
 * warnings), and the first ready line of every server.
 */
public final class HttpOutcome {
    private final List<HttpRecord> records = new ArrayList<>();
    private final Map<String, String> skipped = new LinkedHashMap<>();
    private final List<String> failures = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();
    private final Map<String, String> readyLines = new LinkedHashMap<>();

    /**
     * Adds a measurement.
     *
     * @param r the record
     */
    public void add(HttpRecord r) {
        records.add(r);
    }

    /**
     * Skips a server from now on.
     *
     * @param server name
     * @param reason why
     */
    public void skip(String server, String reason) {
        skipped.putIfAbsent(server, reason);
    }

    /**
     * Whether a server is skipped.
     *
     * @param server name
     * @return true when skipped
     */
    public boolean isSkipped(String server) {
        return skipped.containsKey(server);
    }

    /**
     * Records a failed run.
     *
     * @param text what failed
     */
    public void fail(String text) {
        failures.add(text);
    }

    /**
     * Records a problem of a run that was measured.
     *
     * @param text the problem
     */
    public void problem(String text) {
        problems.add(text);
    }

    /**
     * Keeps the first ready line of a server (it names the engine and threads).
     *
     * @param server name
     * @param line   the line
     */
    public void readyLine(String server, String line) {
        readyLines.putIfAbsent(server, line);
    }

    /**
     * The measurements of one server and size.
     *
     * @param server name
     * @param size   size
     * @return its results, in run order
     */
    public List<HttpRecord> results(String server, FileSize size) {
        List<HttpRecord> out = new ArrayList<>();
        for (HttpRecord r : records) {
            if (r.server().equals(server) && r.size().equals(size)) {
                out.add(r);
            }
        }
        return out;
    }

    /**
     * All measurements.
     *
     * @return the records
     */
    public List<HttpRecord> records() {
        return Collections.unmodifiableList(records);
    }

    /**
     * Skipped servers.
     *
     * @return name to reason
     */
    public Map<String, String> skipped() {
        return Collections.unmodifiableMap(skipped);
    }

    /**
     * Failed runs.
     *
     * @return descriptions
     */
    public List<String> failures() {
        return Collections.unmodifiableList(failures);
    }

    /**
     * Problems of measured runs.
     *
     * @return descriptions
     */
    public List<String> problems() {
        return Collections.unmodifiableList(problems);
    }

    /**
     * The first ready line of each server that printed one.
     *
     * @return name to line
     */
    public Map<String, String> readyLines() {
        return Collections.unmodifiableMap(readyLines);
    }
}
