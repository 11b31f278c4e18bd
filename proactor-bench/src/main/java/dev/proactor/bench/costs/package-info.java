/**
 * The {@code costs} command: counted costs per echoed message (CPU time, system calls by kind, context switches by
 * thread, io_uring enters and the SQEs each carries) of each echo server, counted by {@code perf stat} inside the
 * load generator's measured window, unpaced (saturation) and at a fixed offered rate below saturation, in
 * interleaved rounds. Reuses the matrix's servers, launcher and load generator.
 */
package dev.proactor.bench.costs;
