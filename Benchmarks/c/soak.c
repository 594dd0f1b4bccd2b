/* Load and soak (make bench): many inputs on one system from many threads, then many
 * systems created and freed, with exact final counts and resident memory reported
 * before and after each phase. Not a timed test: the times printed are for reading,
 * the run fails only if a count is wrong or memory keeps growing.
 *
 * usage: soak [EVENTS_PER_THREAD] [SYSTEMS]     defaults 1000000 and 1000000
 * Memory is "flat" when the second half of the systems phase grows the resident set
 * by less than 8 MiB: whatever a system leaves behind, 500,000 of them would show. */
#define _GNU_SOURCE
#include <corelogic.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BENCH_NAME "soak"
#include "bench_util.h"

enum { THREADS = 8 };

/* The resident set size in MiB, from /proc/self/statm. */
static double rss_mib(void) {
    long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f == NULL) return -1;
    if (fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = -1;
    fclose(f);
    return (double)resident * (double)sysconf(_SC_PAGESIZE) / (1024.0 * 1024.0);
}

struct sender { corelogic_system system; long count; long failures; };

static void *send_events(void *context) {
    struct sender *s = context;
    for (long i = 0; i < s->count; i++) {
        /* One batch in 1000 is asked for (and freed); the rest are pushed nowhere. */
        char *batch = NULL;
        int status = corelogic_system_send(s->system, "\"increment\"", i % 1000 == 0 ? &batch : NULL);
        if (status != CORELOGIC_OK) s->failures++;
        corelogic_free(batch);
    }
    return NULL;
}

static const char *const features[] = {"counter", "downloads", "playcatch", "search", "typeahead"};
static const char *const first_events[] = {
    "\"increment\"", "{\"enqueue\":{\"url\":\"u\"}}", "\"humanThrows\"",
    "{\"queryChanged\":{\"text\":\"q\"}}", "{\"textChanged\":{\"text\":\"t\"}}",
};

struct churner { long count; long created; long freed; long failures; };

static void *create_and_free(void *context) {
    struct churner *c = context;
    for (long i = 0; i < c->count; i++) {
        size_t which = (size_t)i % (sizeof features / sizeof features[0]);
        corelogic_system s = 0;
        if (corelogic_system_new(features[which], NULL, &s, NULL) != CORELOGIC_OK) { c->failures++; continue; }
        c->created++;
        if (corelogic_system_send(s, first_events[which], NULL) != CORELOGIC_OK) c->failures++;
        if (corelogic_system_free(s) == CORELOGIC_OK) c->freed++;
        else c->failures++;
    }
    return NULL;
}

/* Creates and frees `total` systems on THREADS threads; returns 0 if every count is exact. */
static int churn(long total, double *seconds) {
    pthread_t threads[THREADS];
    struct churner churners[THREADS];
    double start = now();
    for (int i = 0; i < THREADS; i++) {
        churners[i] = (struct churner){total / THREADS + (i < total % THREADS), 0, 0, 0};
        pthread_create(&threads[i], NULL, create_and_free, &churners[i]);
    }
    long created = 0, freed = 0, failures = 0;
    for (int i = 0; i < THREADS; i++) {
        pthread_join(threads[i], NULL);
        created += churners[i].created;
        freed += churners[i].freed;
        failures += churners[i].failures;
    }
    *seconds = now() - start;
    printf("  %ld systems created, %ld freed, %ld failures\n", created, freed, failures);
    return created == total && freed == total && failures == 0 ? 0 : 1;
}

int main(int argc, char **argv) {
    long events = argc > 1 ? atol(argv[1]) : 1000000;
    long systems = argc > 2 ? atol(argv[2]) : 1000000;
    int failed = 0;

    /* ---- THREADS x events on one system ---- */
    double rss_start = rss_mib();
    corelogic_system s = 0;
    if (corelogic_system_new("counter", "{\"count\":0}", &s, NULL) != CORELOGIC_OK) return 1;
    struct sender senders[THREADS];
    pthread_t threads[THREADS];
    double start = now();
    for (int i = 0; i < THREADS; i++) {
        senders[i] = (struct sender){s, events, 0};
        pthread_create(&threads[i], NULL, send_events, &senders[i]);
    }
    long failures = 0;
    for (int i = 0; i < THREADS; i++) {
        pthread_join(threads[i], NULL);
        failures += senders[i].failures;
    }
    double seconds = now() - start;
    long expected = (long)THREADS * events;
    char *state = NULL;
    corelogic_system_state(s, &state);
    char want[64];
    snprintf(want, sizeof want, "{\"count\":%ld}", expected);
    int exact = state != NULL && strcmp(state, want) == 0 && failures == 0;
    printf("soak: %d threads x %ld events on one system: %s %s, %ld failures, %.1f s (%.0f events/s)\n",
           THREADS, events, state ? state : "(no state)", exact ? "exact" : "WRONG, expected", failures,
           seconds, (double)THREADS * (double)events / seconds);
    if (!exact) { printf("  expected %s\n", want); failed = 1; }
    corelogic_free(state);
    corelogic_system_free(s);
    double rss_events = rss_mib();
    printf("  resident memory: %.1f MiB before, %.1f MiB after\n", rss_start, rss_events);

    /* ---- systems created and freed: the first half warms up, the second must not grow ---- */
    double half_seconds = 0, rest_seconds = 0;
    printf("soak: %ld systems created and freed on %d threads\n", systems, THREADS);
    failed |= churn(systems / 2, &half_seconds);
    double rss_half = rss_mib();
    failed |= churn(systems - systems / 2, &rest_seconds);
    double rss_end = rss_mib();
    int flat = rss_end - rss_half < 8.0;
    printf("  resident memory: %.1f MiB before, %.1f MiB after half, %.1f MiB after all: %s (+%.1f MiB in the second half)\n",
           rss_events, rss_half, rss_end, flat ? "flat" : "GROWING", rss_end - rss_half);
    printf("  %.1f s (%.0f systems/s)\n", half_seconds + rest_seconds,
           (double)systems / (half_seconds + rest_seconds));
    if (!flat) failed = 1;
    return failed;
}
