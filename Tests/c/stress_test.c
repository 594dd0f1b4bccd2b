/* A many-thread stress host for the sanitizer builds (make test-tsan, make test-asan).
 *
 * Each scenario hammers one concurrency promise of the header from many threads and
 * checks an exact final count, so a lost or doubled input fails the run even when no
 * sanitizer speaks:
 *   - many threads on one system (sends, deliveries and reads interleaved);
 *   - systems created and freed concurrently on every thread;
 *   - corelogic_system_free racing with calls on the same system;
 *   - handlers that re-enter the system (deliver from on_command, read from on_state);
 *   - a journal checkpointing and syncing while other threads send.
 *
 * usage: stress_test [ROUNDS] [DIRECTORY]   ROUNDS scales every loop (default 1).
 * Ends with "stress: N passed, N failed"; exit status 1 on any failure. */
#define _GNU_SOURCE
#include <corelogic.h>
#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fs_util.h"

enum { THREADS = 8 };

static atomic_int passed, failed;
static int rounds = 1;

#define CHECK(cond) check((cond), #cond, __FILE__, __LINE__)
static void check(int ok, const char *what, const char *file, int line) {
    if (ok) { atomic_fetch_add(&passed, 1); return; }
    atomic_fetch_add(&failed, 1);
    fprintf(stderr, "FAIL %s:%d: %s (last error: %s)\n", file, line, what, corelogic_last_error());
}

/* The integer after `"key":` in `json`, or -1. */
static long long number_after(const char *json, const char *key) {
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\":", key);
    const char *at = json ? strstr(json, pattern) : NULL;
    return at ? strtoll(at + strlen(pattern), NULL, 10) : -1;
}

static long long state_number(corelogic_system system, const char *key) {
    char *state = NULL;
    if (corelogic_system_state(system, &state) != CORELOGIC_OK) return -1;
    long long value = number_after(state, key);
    corelogic_free(state);
    return value;
}

static void run_threads(void *(*body)(void *), void *contexts, size_t size, int count) {
    pthread_t threads[THREADS * 2];
    for (int i = 0; i < count; i++) pthread_create(&threads[i], NULL, body, (char *)contexts + i * size);
    for (int i = 0; i < count; i++) pthread_join(threads[i], NULL);
}

/* ---- many threads on one system ----------------------------------------------- */

struct shared_counter { corelogic_system system; int count; int failures; };

static void *increment_and_read(void *context) {
    struct shared_counter *c = context;
    for (int i = 0; i < c->count; i++) {
        char *batch = NULL, *read = NULL;
        if (corelogic_system_send(c->system, (i & 1) ? "\"increment\"" : "{\"increment\":{}}", &batch) != CORELOGIC_OK)
            c->failures++;
        corelogic_free(batch);
        if (i % 16 == 0) {
            if (corelogic_system_query(c->system, "isZero", &read) != CORELOGIC_OK) c->failures++;
            corelogic_free(read);
            read = NULL;
            if (corelogic_system_effects(c->system, &read) != CORELOGIC_OK) c->failures++;
            corelogic_free(read);
        }
    }
    return NULL;
}

static void test_many_threads_one_system(void) {
    corelogic_system s = 0;
    CHECK(corelogic_system_new("counter", NULL, &s, NULL) == CORELOGIC_OK);
    struct shared_counter contexts[THREADS];
    int each = 2000 * rounds;
    for (int i = 0; i < THREADS; i++) contexts[i] = (struct shared_counter){s, each, 0};
    run_threads(increment_and_read, contexts, sizeof contexts[0], THREADS);
    int failures = 0;
    for (int i = 0; i < THREADS; i++) failures += contexts[i].failures;
    CHECK(failures == 0);
    CHECK(state_number(s, "count") == (long long)THREADS * each);
    CHECK(corelogic_system_free(s) == CORELOGIC_OK);
}

/* ---- systems created and freed concurrently ----------------------------------- */

static const char *const features[] = {"counter", "downloads", "playcatch", "search", "typeahead"};

struct churn { int count; int failures; };

static void *create_and_free(void *context) {
    struct churn *c = context;
    for (int i = 0; i < c->count; i++) {
        const char *feature = features[i % (sizeof features / sizeof features[0])];
        corelogic_system s = 0;
        char *batch = NULL;
        if (corelogic_system_new(feature, NULL, &s, &batch) != CORELOGIC_OK) { c->failures++; continue; }
        corelogic_free(batch);
        if (strcmp(feature, "downloads") == 0) {
            corelogic_system_send(s, "{\"enqueue\":{\"url\":\"u\"}}", NULL);
        } else if (strcmp(feature, "counter") == 0) {
            corelogic_system_send(s, "\"increment\"", NULL);
        }
        if (corelogic_system_free(s) != CORELOGIC_OK) c->failures++;
        if (corelogic_system_free(s) != CORELOGIC_ERR_HANDLE) c->failures++;   /* double free is detected */
    }
    return NULL;
}

static void test_create_and_free_concurrently(void) {
    struct churn contexts[THREADS];
    for (int i = 0; i < THREADS; i++) contexts[i] = (struct churn){500 * rounds, 0};
    run_threads(create_and_free, contexts, sizeof contexts[0], THREADS);
    int failures = 0;
    for (int i = 0; i < THREADS; i++) failures += contexts[i].failures;
    CHECK(failures == 0);
}

/* ---- a free racing with calls ------------------------------------------------- */

struct racer { corelogic_system system; atomic_int *started; int oks; int unexpected; };

static void *call_until_freed(void *context) {
    struct racer *r = context;
    atomic_fetch_add(r->started, 1);
    for (;;) {
        char *out = NULL;
        int status = corelogic_system_send(r->system, "\"increment\"", &out);
        corelogic_free(out);
        if (status == CORELOGIC_ERR_HANDLE) break;
        if (status != CORELOGIC_OK) { r->unexpected++; break; }
        r->oks++;
        out = NULL;
        status = corelogic_system_state(r->system, &out);
        corelogic_free(out);
        if (status == CORELOGIC_ERR_HANDLE) break;
        if (status != CORELOGIC_OK) { r->unexpected++; break; }
    }
    /* Once freed, the handle stays invalid for every call. */
    char *out = NULL;
    if (corelogic_system_state(r->system, &out) != CORELOGIC_ERR_HANDLE) r->unexpected++;
    if (out != NULL) r->unexpected++;
    return NULL;
}

static void test_free_races_with_calls(void) {
    for (int round = 0; round < 20 * rounds; round++) {
        corelogic_system s = 0;
        CHECK(corelogic_system_new("counter", NULL, &s, NULL) == CORELOGIC_OK);
        atomic_int started = 0;
        struct racer racers[THREADS - 1];
        pthread_t threads[THREADS - 1];
        for (int i = 0; i < THREADS - 1; i++) {
            racers[i] = (struct racer){s, &started, 0, 0};
            pthread_create(&threads[i], NULL, call_until_freed, &racers[i]);
        }
        while (atomic_load(&started) < THREADS - 1) sched_yield();
        usleep(200);
        CHECK(corelogic_system_free(s) == CORELOGIC_OK);
        int unexpected = 0;
        for (int i = 0; i < THREADS - 1; i++) {
            pthread_join(threads[i], NULL);
            unexpected += racers[i].unexpected;
        }
        CHECK(unexpected == 0);
        CHECK(corelogic_system_free(s) == CORELOGIC_ERR_HANDLE);
    }
}

/* ---- handlers that re-enter --------------------------------------------------- */

/* Every timer the machine starts is answered at once from inside the handler, so each
 * accepted humanThrows makes exactly two throws; the state handler reads the system
 * back (a re-entrant read). */
struct catcher { corelogic_system system; atomic_int answers; atomic_int reads; atomic_int bad; };

static void answer_timer(void *context, const char *command) {
    struct catcher *c = context;
    const char *start = strstr(command, "{\"start\":{\"id\":");
    if (start == NULL) return;
    unsigned long long id = strtoull(start + strlen("{\"start\":{\"id\":"), NULL, 10);
    char *batch = NULL;
    int status = corelogic_system_deliver(c->system, id, "\"machineThrows\"", &batch);
    if (status != CORELOGIC_OK || number_after(batch, "steps") != 0) atomic_fetch_add(&c->bad, 1);
    corelogic_free(batch);
    atomic_fetch_add(&c->answers, 1);
}

static void read_back(void *context, const char *state) {
    struct catcher *c = context;
    char *now = NULL;
    if (corelogic_system_state(c->system, &now) != CORELOGIC_OK || strcmp(now, state) != 0)
        atomic_fetch_add(&c->bad, 1);
    corelogic_free(now);
    atomic_fetch_add(&c->reads, 1);
}

struct thrower { struct catcher *catcher; int count; int failures; };

static void *throw_many(void *context) {
    struct thrower *t = context;
    for (int i = 0; i < t->count; i++) {
        char *batch = NULL;
        if (corelogic_system_send(t->catcher->system, "\"humanThrows\"", &batch) != CORELOGIC_OK) t->failures++;
        /* The handler answered inside this call: the ball is back with the human. */
        else if (number_after(batch, "steps") != 2 || strstr(batch, "\"ball\":\"human\"") == NULL) t->failures++;
        corelogic_free(batch);
    }
    return NULL;
}

static void test_reentrant_handlers_under_threads(void) {
    struct catcher c = {0};
    CHECK(corelogic_system_new("playcatch", NULL, &c.system, NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_on_command(c.system, answer_timer, &c) == CORELOGIC_OK);
    CHECK(corelogic_system_on_state(c.system, read_back, &c) == CORELOGIC_OK);
    struct thrower throwers[THREADS];
    int each = 500 * rounds;
    for (int i = 0; i < THREADS; i++) throwers[i] = (struct thrower){&c, each, 0};
    run_threads(throw_many, throwers, sizeof throwers[0], THREADS);
    int failures = 0;
    for (int i = 0; i < THREADS; i++) failures += throwers[i].failures;
    CHECK(failures == 0);
    CHECK(atomic_load(&c.bad) == 0);
    CHECK(atomic_load(&c.answers) == THREADS * each);
    CHECK(atomic_load(&c.reads) == 2 * THREADS * each);
    CHECK(state_number(c.system, "throwCount") == 2LL * THREADS * each);
    CHECK(corelogic_system_free(c.system) == CORELOGIC_OK);
}

/* ---- a journal checkpointing under load --------------------------------------- */

struct checkpointer { corelogic_system system; atomic_int *stop; int checkpoints; int failures; };

static void *checkpoint_until_stopped(void *context) {
    struct checkpointer *c = context;
    while (!atomic_load(c->stop)) {
        if (corelogic_system_checkpoint(c->system) != CORELOGIC_OK) c->failures++;
        else c->checkpoints++;
        if (corelogic_system_sync_journal(c->system) != CORELOGIC_OK) c->failures++;
        usleep(1000);
    }
    return NULL;
}

static void test_journal_checkpoints_under_load(const char *directory) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/stress-journal", directory);
    remove_tree(dir);
    corelogic_system s = 0;
    CHECK(corelogic_system_new("counter", NULL, &s, NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_open_journal(s, dir, CORELOGIC_DURABILITY_INTERVAL) == CORELOGIC_OK);

    atomic_int stop = 0;
    struct checkpointer checkpointer = {s, &stop, 0, 0};
    pthread_t checkpoint_thread;
    pthread_create(&checkpoint_thread, NULL, checkpoint_until_stopped, &checkpointer);
    struct shared_counter senders[THREADS - 1];
    int each = 500 * rounds;
    for (int i = 0; i < THREADS - 1; i++) senders[i] = (struct shared_counter){s, each, 0};
    run_threads(increment_and_read, senders, sizeof senders[0], THREADS - 1);
    atomic_store(&stop, 1);
    pthread_join(checkpoint_thread, NULL);

    int failures = checkpointer.failures;
    for (int i = 0; i < THREADS - 1; i++) failures += senders[i].failures;
    CHECK(failures == 0);
    CHECK(checkpointer.checkpoints > 0);
    long long expected = (long long)(THREADS - 1) * each;
    CHECK(state_number(s, "count") == expected);
    CHECK(corelogic_system_free(s) == CORELOGIC_OK);

    /* Every acknowledged input was journaled: the restored count is exact. */
    corelogic_system restored = 0;
    char *report = NULL;
    CHECK(corelogic_system_restore("counter", dir, &restored, &report, NULL) == CORELOGIC_OK);
    CHECK(number_after(report, "seq") == expected);
    corelogic_free(report);
    CHECK(state_number(restored, "count") == expected);
    CHECK(corelogic_system_free(restored) == CORELOGIC_OK);
    remove_tree(dir);
}

int main(int argc, char **argv) {
    if (argc > 1) rounds = atoi(argv[1]) > 0 ? atoi(argv[1]) : 1;
    char template[] = "/tmp/corelogic-stress-XXXXXX";
    const char *directory = argc > 2 ? argv[2] : mkdtemp(template);
    if (directory == NULL) { perror("mkdtemp"); return 1; }

    test_many_threads_one_system();
    test_create_and_free_concurrently();
    test_free_races_with_calls();
    test_reentrant_handlers_under_threads();
    test_journal_checkpoints_under_load(directory);

    if (argc <= 2) rmdir(directory);
    printf("stress: %d passed, %d failed\n", atomic_load(&passed), atomic_load(&failed));
    return atomic_load(&failed) == 0 ? 0 : 1;
}
