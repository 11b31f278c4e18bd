package dev.proactor.bench.costs;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * One run's counts per echoed message. Messages = the load generator's achieved msgs/s x the perf window (perf
 * counts inside the generator's measured window, so both see the same steady state). A measure whose event was
 * not counted is NaN.
 *
 * @param messages       echoed messages in the perf window
 * @param cpuNsPerMsg    the server's CPU time (task-clock, every thread) per message, nanoseconds
 * @param syscallsPerMsg system calls of every kind per message
 * @param syscallsByKind per message, by {@link PerfEvents#SYSCALL_KINDS} kind (NaN when not counted), in that order
 * @param ctxPerMsg      context switches per message
 * @param ctxByThread    context switches per message by thread group ({@link PerfSample#group}), non-zero only
 * @param entersPerMsg   io_uring_enter calls per message
 * @param sqesPerEnter   SQEs submitted per io_uring_enter; NaN without enters
 */
public record RunCosts(double messages, double cpuNsPerMsg, double syscallsPerMsg, Map<String, Double> syscallsByKind,
                       double ctxPerMsg, Map<String, Double> ctxByThread, double entersPerMsg, double sqesPerEnter) {

    /**
     * Copies the maps, keeping their order.
     *
     * @param messages       messages
     * @param cpuNsPerMsg    CPU ns per message
     * @param syscallsPerMsg system calls per message
     * @param syscallsByKind by kind
     * @param ctxPerMsg      context switches per message
     * @param ctxByThread    by thread group
     * @param entersPerMsg   enters per message
     * @param sqesPerEnter   SQEs per enter
     */
    public RunCosts {
        syscallsByKind = Collections.unmodifiableMap(new LinkedHashMap<>(syscallsByKind));
        ctxByThread = Collections.unmodifiableMap(new TreeMap<>(ctxByThread));
    }

    /**
     * The per-message costs of a perf sample.
     *
     * @param sample        what perf counted
     * @param msgsPerS      the load generator's achieved messages per second
     * @param windowSeconds how long perf counted
     * @return the costs (every per-message value NaN when no message was echoed)
     */
    public static RunCosts of(PerfSample sample, double msgsPerS, double windowSeconds) {
        double messages = msgsPerS * windowSeconds;
        double m = messages > 0 ? messages : Double.NaN;
        Map<String, Double> kinds = new LinkedHashMap<>();
        for (String kind : PerfEvents.SYSCALL_KINDS) {
            kinds.put(kind, sample.total(PerfEvents.ofKind(kind)) / m);
        }
        Map<String, Double> ctx = new TreeMap<>();
        sample.byGroup(PerfEvents.CONTEXT_SWITCHES).forEach((g, v) -> ctx.put(g, v / m));
        double enters = sample.total(PerfEvents.ofKind(PerfEvents.IO_URING_ENTER));
        double sqes = sample.total(PerfEvents.SUBMIT_REQ);
        return new RunCosts(messages, sample.total(PerfEvents.TASK_CLOCK) * 1e6 / m,
                sample.total(PerfEvents.SYSCALLS) / m, kinds, sample.total(PerfEvents.CONTEXT_SWITCHES) / m, ctx,
                enters / m, enters > 0 ? sqes / enters : Double.NaN);
    }
}
