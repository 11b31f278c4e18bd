package dev.proactor.bench.http;

import java.util.List;

/** Parsers for {@code /proc/stat} and {@code /proc/PID/stat} (Linux; times in clock ticks). */
final class ProcStat {
    private ProcStat() {
    }

    /**
     * Machine-wide CPU counters.
     *
     * @param totalTicks every tick of every CPU (user, nice, system, idle, iowait, irq, softirq, steal)
     * @param userTicks  user + nice ticks of every CPU
     * @param cpus       number of {@code cpuN} lines (online CPUs)
     */
    record Machine(long totalTicks, long userTicks, int cpus) {
    }

    /**
     * One process's counters.
     *
     * @param pid       process id
     * @param ppid      parent process id
     * @param userTicks user time
     * @param sysTicks  system time
     */
    record Task(long pid, long ppid, long userTicks, long sysTicks) {
    }

    /**
     * Parses {@code /proc/stat}.
     *
     * @param lines its lines
     * @return the counters
     * @throws IllegalArgumentException when the {@code cpu} line is missing or malformed
     */
    static Machine machine(List<String> lines) {
        long total = -1;
        long user = 0;
        int cpus = 0;
        for (String line : lines) {
            if (line.startsWith("cpu ")) {
                String[] f = line.trim().split("\\s+");
                if (f.length < 9) {
                    throw new IllegalArgumentException("malformed /proc/stat line: " + line);
                }
                total = 0;
                for (int i = 1; i <= 8; i++) {
                    total += Long.parseLong(f[i]);
                }
                user = Long.parseLong(f[1]) + Long.parseLong(f[2]);
            } else if (line.startsWith("cpu")) {
                cpus++;
            }
        }
        if (total < 0) {
            throw new IllegalArgumentException("/proc/stat has no 'cpu' line");
        }
        return new Machine(total, user, Math.max(1, cpus));
    }

    /**
     * Parses one {@code /proc/PID/stat} line; the command name may contain spaces and parentheses,
     * so fields are counted from the last {@code )}.
     *
     * @param line the line
     * @return the counters
     * @throws IllegalArgumentException when malformed
     */
    static Task task(String line) {
        int open = line.indexOf(' ');
        int close = line.lastIndexOf(')');
        if (open < 0 || close < open) {
            throw new IllegalArgumentException("malformed /proc/PID/stat: " + line);
        }
        String[] f = line.substring(close + 2).trim().split("\\s+");
        // f[0] = state (field 3), f[1] = ppid (4), f[11] = utime (14), f[12] = stime (15)
        if (f.length < 13) {
            throw new IllegalArgumentException("malformed /proc/PID/stat: " + line);
        }
        return new Task(Long.parseLong(line.substring(0, open)), Long.parseLong(f[1]), Long.parseLong(f[11]),
                Long.parseLong(f[12]));
    }
}
