#include "fairness.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

struct fairness fairness_of(uint64_t *counts, int n)
{
    struct fairness f = { 0 };
    qsort(counts, (size_t)n, sizeof *counts, cmp_u64);
    f.min = counts[0];
    f.max = counts[n - 1];
    f.median = n % 2 ? (double)counts[n / 2] : ((double)counts[n / 2 - 1] + (double)counts[n / 2]) / 2.0;
    f.max_over_min = f.min == 0 ? INFINITY : (double)f.max / (double)f.min;
    for (int i = 0; i < n && counts[i] == 0; i++)
        f.idle++;
    return f;
}

void fairness_fields(char *buf, size_t len, const struct fairness *f)
{
    char ratio[32];
    if (isinf(f->max_over_min))
        snprintf(ratio, sizeof ratio, "inf");
    else
        snprintf(ratio, sizeof ratio, "%.3f", f->max_over_min);
    snprintf(buf, len,
             "session_msgs_min=%llu session_msgs_median=%.1f session_msgs_max=%llu session_msgs_max_over_min=%s "
             "idle_sessions=%d",
             (unsigned long long)f->min, f->median, (unsigned long long)f->max, ratio, f->idle);
}

int fairness_self_test(void)
{
    static const struct {
        int n;
        uint64_t counts[6];
        const char *expect;
    } cases[] = {
        { 1, { 7 }, "session_msgs_min=7 session_msgs_median=7.0 session_msgs_max=7 "
                    "session_msgs_max_over_min=1.000 idle_sessions=0" },
        { 3, { 30, 10, 20 }, "session_msgs_min=10 session_msgs_median=20.0 session_msgs_max=30 "
                             "session_msgs_max_over_min=3.000 idle_sessions=0" },
        { 4, { 10, 20, 10, 31 }, "session_msgs_min=10 session_msgs_median=15.0 session_msgs_max=31 "
                                 "session_msgs_max_over_min=3.100 idle_sessions=0" },
        { 5, { 4, 0, 2, 6, 0 }, "session_msgs_min=0 session_msgs_median=2.0 session_msgs_max=6 "
                                "session_msgs_max_over_min=inf idle_sessions=2" },
        { 2, { 0, 0 }, "session_msgs_min=0 session_msgs_median=0.0 session_msgs_max=0 "
                       "session_msgs_max_over_min=inf idle_sessions=2" },
    };
    int bad = 0;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        uint64_t counts[6];
        char list[128] = "", fields[256];
        size_t used = 0;
        for (int i = 0; i < cases[c].n; i++) {
            counts[i] = cases[c].counts[i];
            used += (size_t)snprintf(list + used, sizeof list - used, "%s%llu", i ? "," : "",
                                     (unsigned long long)counts[i]);
        }
        struct fairness f = fairness_of(counts, cases[c].n);
        fairness_fields(fields, sizeof fields, &f);
        printf("FAIRNESS counts=%s %s\n", list, fields);
        if (strcmp(fields, cases[c].expect) != 0) {
            fprintf(stderr, "loadgen: self-test FAILED for counts %s:\n  got      %s\n  expected %s\n", list, fields,
                    cases[c].expect);
            bad = 1;
        }
    }
    fprintf(stderr, "loadgen: self-test %s\n", bad ? "FAILED" : "ok");
    return bad;
}
