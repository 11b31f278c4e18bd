package dev.proactor.bench.harness;

import java.util.Arrays;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * Median, minimum and maximum of one field over repeated runs.
 *
 * @param median median (mean of the two middle values for an even count)
 * @param min    smallest value
 * @param max    largest value
 * @param count  number of runs
 */
public record Stats(double median, double min, double max, int count) {

    /**
     * Summarizes a field of the results.
     *
     * @param results the runs (not empty)
     * @param field   which field
     * @param <T>     result type
     * @return the statistics
     */
    public static <T> Stats of(List<T> results, ToDoubleFunction<? super T> field) {
        if (results.isEmpty()) {
            throw new IllegalArgumentException("no results");
        }
        double[] v = results.stream().mapToDouble(field).sorted().toArray();
        int n = v.length;
        double median = n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
        return new Stats(median, v[0], v[n - 1], n);
    }

    /**
     * The values, for debugging.
     *
     * @return a description
     */
    @Override
    public String toString() {
        return "median=" + median + " range=" + Arrays.toString(new double[] {min, max}) + " n=" + count;
    }
}
