/* make bench, C section: round trips through the C ABI, side by side in one run.
 * Each measurement runs ROUNDS rounds and reports the median; the machine is shared
 * and noisy, so medians and ratios are the figures to read, not single runs. */
#define _POSIX_C_SOURCE 200809L
#include <corelogic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BENCH_NAME "bench"
#include "bench_util.h"

#define ROUNDS 9

/* (0) the floor: a no-op ABI call. */
static double noop_calls_per_second(int n) {
    volatile int sink = 0;
    double start = now();
    for (int i = 0; i < n; i++) sink += corelogic_abi_version();
    (void)sink;
    return n / (now() - start);
}

/* (b) search cycle: a query change, its load started, a 10-item page delivered
 * (which cancels the finished load), with every batch read and freed. */
static double search_cycles_per_second(corelogic_system s, int n) {
    double start = now();
    for (int i = 0; i < n; i++) query_then_page(s, i, ten_item_page);
    return n / (now() - start);
}

/* (c) persistence: counter round trips without a journal, with fsync on every input and
 * with interval durability, side by side, as ratios to the run without a journal. The
 * journals live in a mkdtemp directory under /tmp (the disk /tmp is on decides the fsync
 * cost). Interleaved rounds; medians. */
static void bench_persistence(double scale) {
    enum { JOURNAL_ROUNDS = 7 };
    char root[] = "/tmp/corelogic-bench-XXXXXX";
    if (!mkdtemp(root)) { perror("mkdtemp"); return; }
    char every_dir[300], interval_dir[300];
    snprintf(every_dir, sizeof every_dir, "%s/every-input", root);
    snprintf(interval_dir, sizeof interval_dir, "%s/interval", root);
    corelogic_system plain = 0, every = 0, interval = 0;
    int rc;
    if ((rc = corelogic_system_new("counter", NULL, &plain, NULL)) != CORELOGIC_OK) fail("counter new", rc);
    if ((rc = corelogic_system_new("counter", NULL, &every, NULL)) != CORELOGIC_OK) fail("counter new", rc);
    if ((rc = corelogic_system_new("counter", NULL, &interval, NULL)) != CORELOGIC_OK) fail("counter new", rc);
    if ((rc = corelogic_system_open_journal(every, every_dir, CORELOGIC_DURABILITY_EVERY_INPUT)) != CORELOGIC_OK) fail("open_journal", rc);
    if ((rc = corelogic_system_open_journal(interval, interval_dir, CORELOGIC_DURABILITY_INTERVAL)) != CORELOGIC_OK) fail("open_journal", rc);
    int plain_n = (int)(300000 * scale), every_n = (int)(2000 * scale), interval_n = (int)(100000 * scale);
    if (every_n < 50) every_n = 50;
    double plain_r[JOURNAL_ROUNDS], every_r[JOURNAL_ROUNDS], interval_r[JOURNAL_ROUNDS], checkpoint_r[JOURNAL_ROUNDS];
    for (int r = 0; r < JOURNAL_ROUNDS; r++) {
        plain_r[r] = counter_round_trips_per_second(plain, plain_n);
        every_r[r] = counter_round_trips_per_second(every, every_n);
        interval_r[r] = counter_round_trips_per_second(interval, interval_n);
        /* Checkpoints keep each round's segment short; their cost is reported on its own. */
        double start = now();
        if ((rc = corelogic_system_checkpoint(every)) != CORELOGIC_OK) fail("checkpoint", rc);
        checkpoint_r[r] = now() - start;
        if ((rc = corelogic_system_checkpoint(interval)) != CORELOGIC_OK) fail("checkpoint", rc);
    }
    double plain_m = median(plain_r, JOURNAL_ROUNDS), every_m = median(every_r, JOURNAL_ROUNDS);
    double interval_m = median(interval_r, JOURNAL_ROUNDS), checkpoint_m = median(checkpoint_r, JOURNAL_ROUNDS);

    /* Restore: a journal of interval_n inputs after its snapshot, replayed. */
    corelogic_system replay = 0;
    char replay_dir[300];
    snprintf(replay_dir, sizeof replay_dir, "%s/replay", root);
    if ((rc = corelogic_system_new("counter", NULL, &replay, NULL)) != CORELOGIC_OK) fail("counter new", rc);
    if ((rc = corelogic_system_open_journal(replay, replay_dir, CORELOGIC_DURABILITY_INTERVAL)) != CORELOGIC_OK) fail("open_journal", rc);
    (void)counter_round_trips_per_second(replay, interval_n);
    corelogic_system_free(replay);
    double start = now();
    if ((rc = corelogic_system_restore("counter", replay_dir, &replay, NULL, NULL)) != CORELOGIC_OK) fail("restore", rc);
    double restore_s = now() - start;
    corelogic_system_free(replay);

    printf("\n%-44s %14s %12s %10s\n", "persistence (median of 7 rounds)", "per second", "ns each", "vs none");
    printf("%-44s %14.0f %12.1f %9.2fx\n", "counter round trip, no journal", plain_m, 1e9 / plain_m, 1.0);
    printf("%-44s %14.0f %12.1f %9.4fx\n", "counter round trip, journal fsync every input", every_m, 1e9 / every_m, every_m / plain_m);
    printf("%-44s %14.0f %12.1f %9.2fx\n", "counter round trip, journal interval fsync", interval_m, 1e9 / interval_m, interval_m / plain_m);
    printf("checkpoint (snapshot + fresh segment, 5 fsyncs): %.2f ms; restore replaying %d inputs: %.1f ms (%.0f inputs/s)\n",
           checkpoint_m * 1e3, interval_n, restore_s * 1e3, interval_n / restore_s);
    printf("journal directory %s (removed); fsync cost depends on that file system\n", root);
    corelogic_system_free(plain);
    corelogic_system_free(every);
    corelogic_system_free(interval);
    remove_tree(every_dir);
    remove_tree(interval_dir);
    remove_tree(replay_dir);
    rmdir(root);
}

/* (b') the same cycle for a push host: commands arrive through the handler, no batch is
 * asked for, so no state is encoded: the difference to (b) is the cost of state JSON. */
static void remember_start(void *context, const char *command) {
    const char *id = strstr(command, "{\"start\":{\"id\":");
    if (id != NULL) *(unsigned long long *)context = strtoull(id + 15, NULL, 10);
}

static double search_push_cycles_per_second(corelogic_system s, int n) {
    unsigned long long effect = 0;
    int rc = corelogic_system_on_command(s, remember_start, &effect);
    if (rc != CORELOGIC_OK) fail("search on_command", rc);
    double start = now();
    for (int i = 0; i < n; i++) {
        if ((rc = corelogic_system_send(s, search_query(i), NULL)) != CORELOGIC_OK) fail("search send", rc);
        if ((rc = corelogic_system_deliver(s, effect, ten_item_page, NULL)) != CORELOGIC_OK) fail("search deliver", rc);
    }
    double elapsed = now() - start;
    corelogic_system_on_command(s, NULL, NULL);
    return n / elapsed;
}

/* (d) scaling with the size of the state: a search state of N items, full mode vs patch
 * mode (corelogic_system_set_output), side by side in one run. Two events per size:
 *  - one that does not touch the items: loadFailed / retry alternating (each also
 *    cancels one effect and starts another);
 *  - appending a 10-item page: reachedBottom starts a load, and the page is delivered to
 *    it; only the deliver is timed. Each round starts from a fresh system of N items, so
 *    the list grows by at most 10 x APPENDS items within a round (full mode runs fewer
 *    appends at large N, where each costs milliseconds).
 * The C host asks for every batch and frees it (the library's whole cost: the step and
 * the batch's JSON); medians over ROUNDS rounds, and the ratio to N = 0 in the same run. */
enum { SIZES = 4, APPENDS = 51 };
static const int sizes[SIZES] = {0, 1000, 10000, 100000};

static char *search_state(int n) {
    size_t capacity = 256 + (size_t)n * 64;
    char *json = malloc(capacity);
    if (json == NULL) { perror("bench"); exit(1); }
    size_t used = (size_t)snprintf(json, capacity, "{\"query\":\"swift\",\"items\":[");
    for (int i = 0; i < n; i++) {
        used += (size_t)snprintf(json + used, capacity - used, "%s{\"id\":%d,\"name\":\"owner%d/repository%d\",\"stars\":%d}",
                                 i ? "," : "", i + 1, i % 97, i, (i * 7919) % 100000);
    }
    snprintf(json + used, capacity - used, "],\"nextURL\":\"/search/repositories?q=swift&page=2\",\"shouldLoadNextPage\":false}");
    return json;
}

static corelogic_system scaling_system(const char *state, int mode) {
    corelogic_system s = 0;
    int rc = corelogic_system_new("search", state, &s, NULL);
    if (rc != CORELOGIC_OK) fail("search new (scaling)", rc);
    if ((rc = corelogic_system_set_output(s, mode, NULL)) != CORELOGIC_OK) fail("set_output", rc);
    return s;
}

/* Seconds per event of loadFailed / retry alternating. */
static double untouched_event_seconds(corelogic_system s, int n) {
    double start = now();
    for (int i = 0; i < n; i++) {
        char *batch = NULL;
        int rc = corelogic_system_send(s, i & 1 ? "\"retry\"" : "{\"loadFailed\":{\"error\":\"offline\"}}", &batch);
        if (rc != CORELOGIC_OK) fail("search send (scaling)", rc);
        corelogic_free(batch);
    }
    return (now() - start) / n;
}

/* Seconds per delivered 10-item page on a fresh system of the given state: the median
 * over the appends after the first, and the first one in *first (a system's first change
 * to a list it was created with may pay once for what later changes do not). */
static double append_seconds(const char *state, int mode, int appends, double *first) {
    corelogic_system s = scaling_system(state, mode);
    double each[APPENDS];
    for (int i = 0; i < appends; i++) {
        char *batch = NULL;
        int rc = corelogic_system_send(s, "\"reachedBottom\"", &batch);
        if (rc != CORELOGIC_OK) fail("search send (scaling)", rc);
        const char *id = strstr(batch, "{\"start\":{\"id\":");
        if (id == NULL) fail("search start (scaling)", -100);
        unsigned long long effect = strtoull(id + 15, NULL, 10);
        corelogic_free(batch);
        double start = now();
        rc = corelogic_system_deliver(s, effect, ten_item_page, &batch);
        each[i] = now() - start;
        if (rc != CORELOGIC_OK) fail("search deliver (scaling)", rc);
        corelogic_free(batch);
    }
    corelogic_system_free(s);
    *first = each[0];
    return median(each + 1, appends - 1);
}

static void bench_scaling(double scale) {
    enum { SCALING_ROUNDS = 7 };
    static const char *modes[2] = {"full", "patch"};
    char *states[SIZES];
    corelogic_system untouched[SIZES][2];
    double untouched_r[SIZES][2][SCALING_ROUNDS], append_r[SIZES][2][SCALING_ROUNDS], first_r[SIZES][2][SCALING_ROUNDS];
    int events[SIZES][2], appends[SIZES][2];
    for (int k = 0; k < SIZES; k++) {
        states[k] = search_state(sizes[k]);
        for (int m = 0; m < 2; m++) {
            untouched[k][m] = scaling_system(states[k], m == 0 ? CORELOGIC_OUTPUT_FULL : CORELOGIC_OUTPUT_PATCH);
            /* Full mode costs grow with N: fewer events keep the run short. */
            int n = m == 0 ? (int)(2000000.0 * scale / (sizes[k] + 1000)) : (int)(4000 * scale);
            events[k][m] = n < 10 ? 10 : n;
            appends[k][m] = m == 0 ? APPENDS * 1000 / (sizes[k] + 1000) : APPENDS;
            if (appends[k][m] < 3) appends[k][m] = 3;
        }
    }
    for (int r = 0; r < SCALING_ROUNDS; r++) {
        for (int k = 0; k < SIZES; k++) {
            for (int m = 0; m < 2; m++) {
                untouched_r[k][m][r] = untouched_event_seconds(untouched[k][m], events[k][m]);
                append_r[k][m][r] = append_seconds(states[k], m == 0 ? CORELOGIC_OUTPUT_FULL : CORELOGIC_OUTPUT_PATCH,
                                                   appends[k][m], &first_r[k][m][r]);
            }
        }
    }
    printf("\nscaling with the state: search state of N items, microseconds per event (median of %d rounds)\n", SCALING_ROUNDS);
    printf("and the ratio to N = 0 in this run; the C host reads every batch (send/deliver + corelogic_free)\n");
    printf("%-44s", "event, output mode");
    for (int k = 0; k < SIZES; k++) { char head[32]; snprintf(head, sizeof head, "N = %d", sizes[k]); printf(" %18s", head); }
    printf("\n");
    static const char *events_label[3] = {"loadFailed/retry (items untouched)", "10-item page appended",
                                          "first append of a new system"};
    for (int which = 0; which < 3; which++) {
        for (int m = 0; m < 2; m++) {
            char label[64];
            snprintf(label, sizeof label, "%s, %s", events_label[which], modes[m]);
            printf("%-44s", label);
            double base = 0;
            for (int k = 0; k < SIZES; k++) {
                double *rounds = which == 0 ? untouched_r[k][m] : which == 1 ? append_r[k][m] : first_r[k][m];
                double m_seconds = median(rounds, SCALING_ROUNDS);
                if (k == 0) base = m_seconds;
                char cell[40];
                snprintf(cell, sizeof cell, "%.2f (%.1fx)", m_seconds * 1e6, m_seconds / base);
                printf(" %18s", cell);
            }
            printf("\n");
        }
    }
    printf("appends: the median of a round's appends after its first; the first is shown on its own\n");
    printf("targets (patch mode, N = 100000 vs N = 0): items untouched <= 2x, 10-item append <= 3x\n");
    for (int k = 0; k < SIZES; k++) {
        for (int m = 0; m < 2; m++) corelogic_system_free(untouched[k][m]);
        free(states[k]);
    }
}

int main(int argc, char **argv) {
    double scale = argc > 1 ? atof(argv[1]) : 1.0;
    int noop_n = (int)(5000000 * scale), counter_n = (int)(300000 * scale), search_n = (int)(30000 * scale);
    double noop[ROUNDS], counter[ROUNDS], search[ROUNDS], push[ROUNDS];
    corelogic_system c = 0, s = 0, p = 0;
    int rc = corelogic_system_new("counter", NULL, &c, NULL);
    if (rc != CORELOGIC_OK) fail("counter new", rc);
    rc = corelogic_system_new("search", NULL, &s, NULL);
    if (rc != CORELOGIC_OK) fail("search new", rc);
    rc = corelogic_system_new("search", NULL, &p, NULL);
    if (rc != CORELOGIC_OK) fail("search new", rc);

    /* Interleave the rounds so each measurement sees the same machine conditions. */
    for (int r = 0; r < ROUNDS; r++) {
        noop[r] = noop_calls_per_second(noop_n);
        counter[r] = counter_round_trips_per_second(c, counter_n);
        search[r] = search_cycles_per_second(s, search_n);
        push[r] = search_push_cycles_per_second(p, search_n);
    }
    double noop_m = median(noop, ROUNDS), counter_m = median(counter, ROUNDS), search_m = median(search, ROUNDS);
    double push_m = median(push, ROUNDS);

    printf("%-44s %14s %12s %10s\n", "measurement (median of 9 rounds)", "per second", "ns each", "vs target");
    printf("%-44s %14.0f %12.1f %10s\n", "no-op ABI call (corelogic_abi_version)", noop_m, 1e9 / noop_m, "-");
    printf("%-44s %14.0f %12.1f %9.2fx\n", "counter round trip (send+batch+free)", counter_m, 1e9 / counter_m, counter_m / 1e6);
    printf("%-44s %14.0f %12.1f %9.2fx\n", "search cycle (query, start, 10-item page)", search_m, 1e9 / search_m, search_m / 1e5);
    printf("%-44s %14.0f %12.1f %9.2fx\n", "search cycle, push host (handler, no batches)", push_m, 1e9 / push_m, push_m / 1e5);
    printf("targets: counter >= 1,000,000/s, search cycle >= 100,000/s (vs target = measured / target)\n");
    printf("counter round trip costs %.1f no-op ABI calls\n", noop_m / counter_m);
    corelogic_system_free(c);
    corelogic_system_free(s);
    corelogic_system_free(p);
    bench_persistence(scale);
    bench_scaling(scale);
    return 0;
}
