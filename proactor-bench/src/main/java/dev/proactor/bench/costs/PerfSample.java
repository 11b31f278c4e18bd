package dev.proactor.bench.costs;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The counts of one {@code perf stat -x, --per-thread} run: one value per thread and event.
 *
 * <p>A line is {@code COMM-TID,VALUE,UNIT,EVENT,RUNTIME,PERCENT,...}; the thread's name (COMM) may itself hold
 * {@code -} or {@code ,}, so the event is found by name and the fields before it are taken from the right.
 * {@code <not counted>} (a thread that did not run while counting) is 0; {@code <not supported>} leaves the event
 * out for that thread. Lines starting with {@code #} and blank lines are skipped.
 *
 * @param counts every thread's value of every event that perf reported
 */
public record PerfSample(List<Count> counts) {

    /**
     * One thread's value of one event.
     *
     * @param thread the thread's name as perf prints it (the kernel's 15-character comm)
     * @param tid    its thread id
     * @param event  the event name
     * @param value  the count (milliseconds for {@code task-clock})
     */
    public record Count(String thread, long tid, String event, double value) {
    }

    /**
     * Copies the list.
     *
     * @param counts the counts
     */
    public PerfSample {
        counts = List.copyOf(counts);
    }

    /**
     * Parses perf's output.
     *
     * @param lines  the output file's lines
     * @param events the events that were asked for (to find the event field)
     * @return the sample
     * @throws IllegalArgumentException on a line that names none of the events or has a malformed value
     */
    public static PerfSample parse(List<String> lines, Collection<String> events) {
        Set<String> known = new HashSet<>(events);
        List<Count> out = new ArrayList<>();
        for (String line : lines) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split(",", -1);
            int e = -1;
            for (int i = 3; i < f.length; i++) {
                if (known.contains(f[i])) {
                    e = i;
                    break;
                }
            }
            if (e < 0) {
                throw new IllegalArgumentException("perf stat line names no counted event: " + line);
            }
            String threadAndTid = String.join(",", Arrays.asList(f).subList(0, e - 2));
            String value = f[e - 2];
            if (value.equals("<not supported>")) {
                continue;
            }
            int dash = threadAndTid.lastIndexOf('-');
            if (dash < 0) {
                throw new IllegalArgumentException("perf stat line has no COMM-TID (run with --per-thread): " + line);
            }
            try {
                long tid = Long.parseLong(threadAndTid.substring(dash + 1));
                double v = value.equals("<not counted>") ? 0 : Double.parseDouble(value);
                out.add(new Count(threadAndTid.substring(0, dash), tid, f[e], v));
            } catch (NumberFormatException ex) {
                throw new IllegalArgumentException("perf stat line has a malformed number: " + line, ex);
            }
        }
        return new PerfSample(out);
    }

    /**
     * Whether perf reported the event at all.
     *
     * @param event the event
     * @return true when some thread has a value
     */
    public boolean has(String event) {
        return counts.stream().anyMatch(c -> c.event().equals(event));
    }

    /**
     * The event's sum over every thread.
     *
     * @param event the event
     * @return the sum, NaN when perf did not report it
     */
    public double total(String event) {
        if (!has(event)) {
            return Double.NaN;
        }
        return counts.stream().filter(c -> c.event().equals(event)).mapToDouble(Count::value).sum();
    }

    /**
     * The event's sum per thread group (the thread name with its digits stripped, see {@link #group}), only
     * groups with a non-zero sum.
     *
     * @param event the event
     * @return group to sum, sorted by name
     */
    public Map<String, Double> byGroup(String event) {
        Map<String, Double> sums = new TreeMap<>();
        for (Count c : counts) {
            if (c.event().equals(event) && c.value() != 0) {
                sums.merge(group(c.thread()), c.value(), Double::sum);
            }
        }
        return sums;
    }

    /**
     * A thread's group: its name without digits and without the separators they leave at the end, so that
     * {@code proactor-io-0} and {@code proactor-io-1} count together. A name of digits only is {@code ?}.
     *
     * @param thread the thread's name
     * @return the group name
     */
    public static String group(String thread) {
        String g = thread.replaceAll("[0-9]", "").replaceAll("[-#_ .:/]+$", "");
        return g.isEmpty() ? "?" : g;
    }
}
