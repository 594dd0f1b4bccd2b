/* The timing helpers every C benchmark uses: a monotonic clock in seconds, medians, and
 * a failure that names the call and the library's error. Define BENCH_NAME before
 * including it (the program's name, printed before a failure). */
#ifndef CORELOGIC_BENCH_UTIL_H
#define CORELOGIC_BENCH_UTIL_H
#include <corelogic.h>
#include <stdio.h>
#include <stdlib.h>
#include <dirent.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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

/* One counter round trip = send("increment") with its batch, then corelogic_free. */
static __attribute__((unused)) double counter_round_trips_per_second(corelogic_system s, int n) {
    double start = now();
    for (int i = 0; i < n; i++) {
        char *batch = NULL;
        int rc = corelogic_system_send(s, "\"increment\"", &batch);
        if (rc != CORELOGIC_OK) fail("counter send", rc);
        corelogic_free(batch);
    }
    return n / (now() - start);
}

/* Removes the files in `dir` and the directory itself (one level). */
static __attribute__((unused)) void remove_dir(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    char path[600];
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    closedir(d);
    rmdir(dir);
}

#endif
