/**
 * What the benchmark commands (matrix, HTTP, TLS, files) share: command-line parsing and option checks, the
 * repository layout, machine facts and the report's context lines, process launch (servers, load generators,
 * taskset pinning, free ports), statistics over runs, and Markdown/CSV pieces. Nothing here knows a benchmark.
 */
package dev.proactor.bench.harness;
