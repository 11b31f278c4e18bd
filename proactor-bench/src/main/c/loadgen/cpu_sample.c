#define _GNU_SOURCE
#include "cpu_sample.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <unistd.h>

static double tv_seconds(struct timeval tv)
{
    return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

static void sample_server(int pid, struct cpu_sample *out)
{
    out->server_user = out->server_total = -1;
    if (pid <= 0)
        return;
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    /* Fields after the command name "(...)": state is field 3, utime 14, stime 15. */
    char *p = strrchr(buf, ')');
    unsigned long utime, stime;
    if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &utime, &stime) != 2)
        return;
    double tick = (double)sysconf(_SC_CLK_TCK);
    out->server_user = (double)utime / tick;
    out->server_total = (double)(utime + stime) / tick;
}

static void sample_machine(struct cpu_sample *out)
{
    out->machine_user = -1;
    FILE *f = fopen("/proc/stat", "r");
    if (!f)
        return;
    unsigned long long user, nice;
    if (fscanf(f, "cpu %llu %llu", &user, &nice) == 2)
        out->machine_user = (double)(user + nice) / (double)sysconf(_SC_CLK_TCK);
    fclose(f);
}

struct cpu_sample sample_cpu(int server_pid)
{
    struct cpu_sample s;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    s.client_user = tv_seconds(ru.ru_utime);
    s.client_total = s.client_user + tv_seconds(ru.ru_stime);
    sample_server(server_pid, &s);
    sample_machine(&s);
    return s;
}
