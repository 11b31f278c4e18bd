/* Per-session fairness: blocks completed per session over the measurement, and how evenly they were served. */
#ifndef LOADGEN_FAIRNESS_H
#define LOADGEN_FAIRNESS_H

#include <stddef.h>
#include <stdint.h>

struct fairness {
    uint64_t min;
    double median;       /* mean of the two middle counts for an even number of sessions */
    uint64_t max;
    double max_over_min; /* INFINITY when min is 0 */
    int idle;            /* sessions that completed nothing */
};

/* Sorts counts[0..n) in place; n >= 1. */
struct fairness fairness_of(uint64_t *counts, int n);

/* The RESULT fields of a fairness summary (no leading or trailing blank). */
void fairness_fields(char *buf, size_t len, const struct fairness *f);

/*
 * --self-test: the fairness statistics on fixed counts. Prints one line per case,
 * "FAIRNESS counts=a,b,... <fields>", and returns 0 when every case gave the expected fields.
 */
int fairness_self_test(void);

#endif
