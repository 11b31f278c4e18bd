package dev.proactor.bench.http;

/**
 * One measured run.
 *
 * @param server       server name
 * @param size         file size
 * @param run          run number, from 1
 * @param result       what wrk reported
 * @param serverCpuPct CPU of the server process and its children, percent of one core (NaN unknown)
 * @param clientCpuPct CPU of wrk, percent of one core (NaN unknown)
 * @param otherCpuPct  user CPU of every other process on the machine, percent of one core (NaN unknown)
 */
public record HttpRecord(String server, FileSize size, int run, WrkResult result, double serverCpuPct,
                         double clientCpuPct, double otherCpuPct) {
}
