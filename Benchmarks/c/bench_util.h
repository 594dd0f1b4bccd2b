/* The timing helpers every C benchmark uses: a monotonic clock in seconds, medians, and
 * a failure that names the call and the library's error. Define BENCH_NAME before
 * including it (the program's name, printed before a failure). */
#ifndef CORELOGIC_BENCH_UTIL_H
#define CORELOGIC_BENCH_UTIL_H
#include <corelogic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static __attribute__((unused)) double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static __attribute__((unused)) int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sorts `values` and returns the middle one. */
static __attribute__((unused)) double median(double *values, int count) {
    qsort(values, (size_t)count, sizeof *values, compare);
    return values[count / 2];
}

static __attribute__((unused)) void fail(const char *what, int rc) {
    fprintf(stderr, BENCH_NAME ": %s failed: %s: %s\n", what, corelogic_status_name(rc), corelogic_last_error());
    exit(1);
}

#endif
