/* make bench, traces: the same work on a system that is not traced and on one that is
 * (to /dev/null, and to a file), side by side in one run: interleaved rounds, medians,
 * ratios to the untraced system. The machine is shared and noisy: read the ratios.
 *
 *   trace_bench            the comparison
 *   trace_bench steps N    N untraced counter round trips and nothing else: run it under
 *                          valgrind --tool=callgrind with two values of N against two
 *                          builds of the library (LD_LIBRARY_PATH) to compare the
 *                          instructions per step of the untraced path (docs/inspector.md). */
#define _POSIX_C_SOURCE 200809L
#include <corelogic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BENCH_NAME "trace_bench"
#include "bench_util.h"

#define ROUNDS 9

/* A query change, its load started, a 3-item page delivered, a late (stale) answer for
 * the load before: four inputs, one of them stale. */
static const char *page =
    "{\"pageLoaded\":{\"items\":[{\"id\":1,\"name\":\"apple/swift\",\"stars\":67000},"
    "{\"id\":2,\"name\":\"vapor/vapor\",\"stars\":24000},{\"id\":3,\"name\":\"apple/swift-nio\",\"stars\":7900}],"
    "\"nextURL\":null}}";

static double search_cycles_per_second(corelogic_system s, int n) {
    unsigned long long previous = 0;
    double start = now();
    for (int i = 0; i < n; i++) {
        unsigned long long effect = query_then_page(s, i, page);
        if (previous && corelogic_system_deliver(s, previous, page, NULL) != CORELOGIC_STALE) fail("stale deliver", -101);
        previous = effect;
    }
    return n / (now() - start);
}

static corelogic_system make(const char *feature, const char *trace) {
    corelogic_system s = 0;
    int rc = corelogic_system_new(feature, NULL, &s, NULL);
    if (rc != CORELOGIC_OK) fail("new", rc);
    if (trace && (rc = corelogic_system_trace(s, trace)) != CORELOGIC_OK) fail("trace", rc);
    return s;
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "steps") == 0) {
        corelogic_system s = make("counter", NULL);
        counter_round_trips_per_second(s, atoi(argv[2]));
        corelogic_system_free(s);
        return 0;
    }
    double scale = getenv("BENCH_SCALE") ? atof(getenv("BENCH_SCALE")) : 1.0;
    int counter_n = (int)(100000 * scale), search_n = (int)(10000 * scale);
    char file[] = "/tmp/corelogic-trace-bench-XXXXXX";
    int fd = mkstemp(file);
    if (fd < 0) { perror("mkstemp"); return 1; }
    close(fd);

    const char *features[2] = {"counter", "search"};
    const char *labels[3] = {"untraced", "traced to /dev/null", "traced to a file"};
    const char *targets[3] = {NULL, "/dev/null", file};
    double results[2][3][ROUNDS];
    for (int f = 0; f < 2; f++) {
        corelogic_system systems[3];
        for (int t = 0; t < 3; t++) systems[t] = make(features[f], targets[t]);
        for (int t = 0; t < 3; t++) {   /* warm-up */
            if (f == 0) counter_round_trips_per_second(systems[t], counter_n / 10 + 1);
            else search_cycles_per_second(systems[t], search_n / 10 + 1);
        }
        for (int round = 0; round < ROUNDS; round++) {
            for (int t = 0; t < 3; t++) {
                int which = (t + round) % 3;   /* rotate who goes first */
                if (f == 0) results[f][which][round] = counter_round_trips_per_second(systems[which], counter_n);
                else results[f][which][round] = search_cycles_per_second(systems[which], search_n);
            }
            /* Keep the file from filling the disk: start it again each round. */
            if (f == 1 || round % 3 == 2) {
                int rc = corelogic_system_trace(systems[2], file);
                if (rc != CORELOGIC_OK) fail("trace restart", rc);
            }
        }
        for (int t = 0; t < 3; t++) corelogic_system_free(systems[t]);
    }
    printf("%-52s %14s %12s %10s\n", "measurement (median of 9 rounds)", "per second", "ns each", "vs untraced");
    for (int f = 0; f < 2; f++) {
        double base = median(results[f][0], ROUNDS);
        for (int t = 0; t < 3; t++) {
            double m = t == 0 ? base : median(results[f][t], ROUNDS);
            char name[96];
            snprintf(name, sizeof name, "%s, %s", f == 0 ? "counter round trip" : "search cycle (4 inputs, 1 stale)", labels[t]);
            printf("%-52s %14.0f %12.1f %9.2fx\n", name, m, 1e9 / m, m / base);
        }
    }
    printf("an untraced system pays one nil test per step (instructions: docs/inspector.md)\n");
    unlink(file);
    return 0;
}
