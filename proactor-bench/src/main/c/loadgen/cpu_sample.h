/*
 * CPU time in seconds at one instant: this process (getrusage), the server process
 * (/proc/PID/stat, -1 when unknown) and the user time of the whole machine (/proc/stat,
 * -1 when unreadable). User time of other processes = machine - client - server user time;
 * it shows when something else on the machine disturbed the measurement.
 */
#ifndef LOADGEN_CPU_SAMPLE_H
#define LOADGEN_CPU_SAMPLE_H

struct cpu_sample {
    double client_user;
    double client_total;
    double server_user;
    double server_total;
    double machine_user;
};

/* Samples now; server_pid <= 0: no server (its fields are -1). */
struct cpu_sample sample_cpu(int server_pid);

#endif
