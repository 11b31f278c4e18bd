package dev.proactor.bench.costs;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The perf events the costs command counts, and which of them this kernel has. A missing event is skipped (its
 * columns stay empty) with a note in the report.
 */
public final class PerfEvents {
    /** CPU time of the server's threads (perf reports milliseconds). */
    public static final String TASK_CLOCK = "task-clock";
    /** Context switches of the server's threads. */
    public static final String CONTEXT_SWITCHES = "context-switches";
    /** Every system call entry. */
    public static final String SYSCALLS = "raw_syscalls:sys_enter";
    /** One per SQE the kernel takes from an io_uring submission queue. */
    public static final String SUBMIT_REQ = "io_uring:io_uring_submit_req";
    /** The system calls counted one by one ({@code syscalls:sys_enter_KIND}). */
    public static final List<String> SYSCALL_KINDS = List.of("read", "write", "readv", "writev", "recvfrom", "sendto",
            "recvmsg", "sendmsg", "epoll_wait", "epoll_pwait", "epoll_ctl", "io_uring_enter", "futex", "accept4");
    /** The kind whose count is the io_uring enters. */
    public static final String IO_URING_ENTER = "io_uring_enter";

    private PerfEvents() {
    }

    /**
     * The event of one system call kind.
     *
     * @param kind e.g. {@code recvfrom}
     * @return e.g. {@code syscalls:sys_enter_recvfrom}
     */
    public static String ofKind(String kind) {
        return "syscalls:sys_enter_" + kind;
    }

    /**
     * Every event the command asks for, in report order.
     *
     * @return the event names
     */
    public static List<String> wanted() {
        List<String> all = new ArrayList<>(List.of(TASK_CLOCK, CONTEXT_SWITCHES, SYSCALLS));
        for (String kind : SYSCALL_KINDS) {
            all.add(ofKind(kind));
        }
        all.add(SUBMIT_REQ);
        return all;
    }

    /**
     * Which of the wanted events {@code perf list} names.
     *
     * @param perfList the output of {@code perf list}
     * @return present and missing events
     */
    public static Availability check(String perfList) {
        Set<String> words = new HashSet<>();
        for (String token : perfList.split("[\\s,\\[\\]]+")) {
            words.add(token);
        }
        List<String> present = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (String e : wanted()) {
            (words.contains(e) ? present : missing).add(e);
        }
        return new Availability(present, missing);
    }

    /**
     * The outcome of {@link #check}.
     *
     * @param present events to count, in report order
     * @param missing events this kernel or perf lacks
     */
    public record Availability(List<String> present, List<String> missing) {
        /**
         * Copies the lists.
         *
         * @param present events to count
         * @param missing events skipped
         */
        public Availability {
            present = List.copyOf(present);
            missing = List.copyOf(missing);
        }
    }
}
