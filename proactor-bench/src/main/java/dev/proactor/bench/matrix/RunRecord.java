package dev.proactor.bench.matrix;

/**
 * One measurement.
 *
 * @param server server name
 * @param row    table point
 * @param run    repetition number, from 1
 * @param result what the load generator measured
 */
public record RunRecord(String server, Row row, int run, LoadResult result) {
}
