/* The header's two loudest promises on their error paths (include/corelogic.h,
 * "Conventions" and "Persistence"): a status other than OK leaves the system exactly as
 * it was, and an input acknowledged with OK is never lost. Small inputs only, so it runs
 * under valgrind; the size limits are in limits_test.c, injected disk faults in
 * fault_test.c.
 * Ends with "contract: N passed, N failed"; exit status 1 on any failure. */
#include "persist_util.h"
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <time.h>

static off_t file_size(const char *path) {
    struct stat info;
    return stat(path, &info) == 0 ? info.st_size : -1;
}

/* ---- An input a handler queued whose record cannot be written ------------------ */

static corelogic_system queuing;
static int queue_once;
static int queued_status;
static void queue_increment(void *context, const char *state) {
    (void)context;
    (void)state;
    if (!queue_once) return;
    queue_once = 0;
    queued_status = corelogic_system_send(queuing, "\"increment\"", NULL);
}

/* `queuing`: a counter journaling into `dir` whose state handler sends an increment
 * while queue_once is set; the path of its journal segment goes to `segment`. */
static void open_queuing(const char *dir, int durability, char *segment, size_t size) {
    CHECK(corelogic_system_new("counter", NULL, &queuing, NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_open_journal(queuing, dir, durability) == CORELOGIC_OK);
    CHECK(corelogic_system_on_state(queuing, queue_increment, NULL) == CORELOGIC_OK);
    CHECK(last_segment(dir, segment, size) == 0);
}

/* The outer call's input is journaled and applied; the input its handler queued cannot
 * be written (the file size limit leaves room for one record only). The outer call
 * returns OK with its batch, the batch reports the dropped input, and the dropped input
 * was never applied: the live state, a restore and a retry all agree. */
static void test_queued_input_whose_record_fails(int with_batch) {
    const char *dir = path_in(with_batch ? "queued-pull" : "queued-push");
    char segment[600];
    open_queuing(dir, CORELOGIC_DURABILITY_EVERY_INPUT, segment, sizeof segment);
    off_t empty = file_size(segment);
    CHECK(corelogic_system_send(queuing, "\"increment\"", NULL) == CORELOGIC_OK);
    off_t one_record = file_size(segment) - empty; /* seq 1; seq 2 has as many digits */

    struct rlimit old;
    CHECK(limit_file_size(file_size(segment) + one_record + 5, &old) == 0);
    queue_once = 1;
    queued_status = -100;
    char *batch = NULL;
    int rc = corelogic_system_send(queuing, "\"increment\"", with_batch ? &batch : NULL);
    setrlimit(RLIMIT_FSIZE, &old);

    CHECK(rc == CORELOGIC_OK);
    CHECK(queued_status == CORELOGIC_OK); /* OK from a handler means queued */
    if (with_batch) {
        CHECK(contains(batch, "{\"state\":{\"count\":2},"));
        CHECK(contains(batch, "\"steps\":1,\"dropped\":[{\"input\":{\"send\":{\"increment\":{}}},\"status\":\"CORELOGIC_ERR_IO\",\"error\":\"cannot write "));
        CHECK(contains(batch, "File too large"));
    } else {
        CHECK(batch == NULL);
    }
    corelogic_free(batch);
    char *state = state_json(queuing);
    CHECK(strcmp(state, "{\"count\":2}") == 0);
    free(state);
    /* The segment holds exactly the two acknowledged records, nothing of the dropped one. */
    CHECK(file_size(segment) == empty + 2 * one_record);
    /* A retry of the dropped input is applied once. */
    CHECK(corelogic_system_send(queuing, "\"increment\"", NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_free(queuing) == CORELOGIC_OK);
    check_restores("counter", dir, "{\"count\":3}", 0, "\"seq\":3,\"replayed\":3,", NULL);
}

/* The outer call's own record fails: ERR_IO, nothing applied, no handler ran. */
static void test_outer_record_fails_first(void) {
    const char *dir = path_in("outer-fails");
    char segment[600];
    open_queuing(dir, CORELOGIC_DURABILITY_INTERVAL, segment, sizeof segment);
    off_t before = file_size(segment);
    struct rlimit old;
    CHECK(limit_file_size(before + 5, &old) == 0);
    queue_once = 1;
    char *batch = (char *)1;
    CHECK(corelogic_system_send(queuing, "\"increment\"", &batch) == CORELOGIC_ERR_IO);
    setrlimit(RLIMIT_FSIZE, &old);
    CHECK(batch == NULL);
    CHECK(queue_once == 1); /* no step ran, so no handler */
    CHECK(file_size(segment) == before);
    char *state = state_json(queuing);
    CHECK(strcmp(state, "{\"count\":0}") == 0);
    free(state);
    queue_once = 0;
    corelogic_system_free(queuing);
}

/* ---- free releases the journal before it returns --------------------------------- */

static corelogic_system freeing;
static const char *freeing_dir;
static int restore_after_free = -100;
static void free_then_restore(void *context, const char *state) {
    (void)context;
    (void)state;
    if (corelogic_system_free(freeing) != CORELOGIC_OK) return;
    corelogic_system restored = 0;
    restore_after_free = corelogic_system_restore("counter", freeing_dir, &restored, NULL, NULL);
    corelogic_system_free(restored);
}

/* Free from inside a handler: when free returns, the directory is released. */
static void test_free_in_handler_releases_directory(void) {
    freeing_dir = path_in("free-handler");
    CHECK(corelogic_system_new("counter", NULL, &freeing, NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_open_journal(freeing, freeing_dir, CORELOGIC_DURABILITY_INTERVAL) == CORELOGIC_OK);
    CHECK(corelogic_system_on_state(freeing, free_then_restore, NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_send(freeing, "\"increment\"", NULL) == CORELOGIC_OK);
    CHECK(restore_after_free == CORELOGIC_OK);
    CHECK(corelogic_system_send(freeing, "\"increment\"", NULL) == CORELOGIC_ERR_HANDLE);
    check_restores("counter", freeing_dir, "{\"count\":1}", 0, NULL);
}

static volatile int in_handler;
static void slow_handler(void *context, const char *state) {
    (void)context;
    (void)state;
    in_handler = 1;
    struct timespec pause = {0, 30 * 1000 * 1000};
    nanosleep(&pause, NULL);
}
static void *send_slowly(void *arg) {
    corelogic_system s = *(corelogic_system *)arg;
    corelogic_system_send(s, "\"increment\"", NULL);
    return NULL;
}

/* Free from another thread while a call runs: free waits for the call, and when it
 * returns the directory is released (a restore succeeds at once, every time). */
static void test_free_from_another_thread_releases_directory(void) {
    const char *dir = path_in("free-thread");
    int restored_ok = 0;
    for (int round = 0; round < 5; round++) {
        remove_tree(dir);
        corelogic_system s = 0;
        CHECK(corelogic_system_new("counter", NULL, &s, NULL) == CORELOGIC_OK);
        CHECK(corelogic_system_open_journal(s, dir, CORELOGIC_DURABILITY_INTERVAL) == CORELOGIC_OK);
        CHECK(corelogic_system_on_state(s, slow_handler, NULL) == CORELOGIC_OK);
        in_handler = 0;
        pthread_t thread;
        pthread_create(&thread, NULL, send_slowly, &s);
        while (!in_handler) {
            struct timespec pause = {0, 1000 * 1000};
            nanosleep(&pause, NULL);
        }
        CHECK(corelogic_system_free(s) == CORELOGIC_OK);
        corelogic_system r = 0;
        int rc = corelogic_system_restore("counter", dir, &r, NULL, NULL);
        if (rc == CORELOGIC_OK) restored_ok++;
        else fprintf(stderr, "  restore right after free: %s\n", corelogic_last_error());
        char *state = state_json(r);
        CHECK(rc != CORELOGIC_OK || strcmp(state, "{\"count\":1}") == 0);
        free(state);
        corelogic_system_free(r);
        pthread_join(thread, NULL);
    }
    CHECK(restored_ok == 5);
}

/* ---- A journal directory deleted and re-created ----------------------------------- */

static void test_directory_replaced(void) {
    const char *dir = path_in("replaced");
    corelogic_system s = 0;
    CHECK(corelogic_system_new("counter", NULL, &s, NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_open_journal(s, dir, CORELOGIC_DURABILITY_EVERY_INPUT) == CORELOGIC_OK);
    CHECK(corelogic_system_send(s, "\"increment\"", NULL) == CORELOGIC_OK);
    remove_tree(dir);
    CHECK(mkdir(dir, 0755) == 0);
    /* Nothing is acknowledged into a file no restore can find. */
    CHECK(corelogic_system_send(s, "\"increment\"", NULL) == CORELOGIC_ERR_IO);
    CHECK(contains(corelogic_last_error(), "was removed"));
    char *state = state_json(s);
    CHECK(strcmp(state, "{\"count\":1}") == 0);
    free(state);
    /* Another system holds the new directory: the checkpoint cannot take it. */
    corelogic_system other = 0;
    CHECK(corelogic_system_restore("counter", dir, &other, NULL, NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_checkpoint(s) == CORELOGIC_ERR_IO);
    CHECK(contains(corelogic_last_error(), "in use"));
    CHECK(corelogic_system_send(s, "\"increment\"", NULL) == CORELOGIC_ERR_IO);
    CHECK(corelogic_system_free(other) == CORELOGIC_OK);
    /* It holds the other system's journal now: still not ours to take. */
    CHECK(corelogic_system_checkpoint(s) == CORELOGIC_ERR_IO);
    remove_tree(dir);
    CHECK(mkdir(dir, 0755) == 0);
    /* Free and empty: the checkpoint takes it, and journaling goes on there. */
    CHECK(corelogic_system_checkpoint(s) == CORELOGIC_OK);
    CHECK(corelogic_system_send(s, "\"increment\"", NULL) == CORELOGIC_OK);
    corelogic_system blocked = 0;
    CHECK(corelogic_system_restore("counter", dir, &blocked, NULL, NULL) == CORELOGIC_ERR_IO);
    CHECK(corelogic_system_free(s) == CORELOGIC_OK);
    check_restores("counter", dir, "{\"count\":2}", 0, NULL);
}

/* A directory moved away keeps its files: records go on there, and it restores; the
 * next checkpoint takes the (free, empty) path again. */
static void test_directory_moved(void) {
    const char *dir = path_in("moved"), *away = path_in("moved-away");
    corelogic_system s = 0;
    CHECK(corelogic_system_new("counter", NULL, &s, NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_open_journal(s, dir, CORELOGIC_DURABILITY_INTERVAL) == CORELOGIC_OK);
    CHECK(rename(dir, away) == 0);
    CHECK(corelogic_system_send(s, "\"increment\"", NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_sync_journal(s) == CORELOGIC_OK);
    CHECK(copy_tree(away, path_in("moved-copy")) == 0);
    check_restores("counter", path_in("moved-copy"), "{\"count\":1}", 0, "\"seq\":1,", NULL);
    CHECK(corelogic_system_checkpoint(s) == CORELOGIC_OK); /* creates and takes the path */
    CHECK(corelogic_system_send(s, "\"increment\"", NULL) == CORELOGIC_OK);
    corelogic_system_free(s);
    check_restores("counter", dir, "{\"count\":2}", 0, NULL);
    remove_tree(away);
}

/* ---- JSON identity: requests and host strings ------------------------------------- */

/* Two URLs that differ only in Unicode normalization are two downloads. */
static void test_requests_are_json_identical_or_different(void) {
    corelogic_system s = 0;
    char *batch = NULL;
    CHECK(corelogic_system_new("downloads", NULL, &s, NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_send(s, "{\"enqueue\":{\"url\":\"caf\\u00e9\"}}", &batch) == CORELOGIC_OK);
    CHECK(contains(batch, "{\"start\":{\"id\":1,\"feedback\":\"download\",\"request\":{\"url\":\"caf\xc3\xa9\"}}}"));
    corelogic_free(batch);
    CHECK(corelogic_system_send(s, "{\"enqueue\":{\"url\":\"cafe\\u0301\"}}", &batch) == CORELOGIC_OK);
    CHECK(contains(batch, "{\"start\":{\"id\":2,\"feedback\":\"download\",\"request\":{\"url\":\"cafe\xcc\x81\"}}}"));
    CHECK(contains(batch, "\"pending\":[\"caf\xc3\xa9\",\"cafe\xcc\x81\"]"));
    corelogic_free(batch);
    /* The same bytes again: a duplicate, ignored. */
    CHECK(corelogic_system_send(s, "{\"enqueue\":{\"url\":\"cafe\\u0301\"}}", &batch) == CORELOGIC_OK);
    CHECK(contains(batch, "\"effects\":[]"));
    corelogic_free(batch);
    /* Finishing one finishes that one only. */
    CHECK(corelogic_system_deliver(s, 2, "{\"finished\":{\"url\":\"cafe\\u0301\"}}", &batch) == CORELOGIC_OK);
    CHECK(contains(batch, "\"pending\":[\"caf\xc3\xa9\"],\"finished\":[\"cafe\xcc\x81\"]"));
    corelogic_free(batch);
    corelogic_system_free(s);

    /* Typed text that changes from é to e + combining accent starts a new debounce. */
    CHECK(corelogic_system_new("typeahead", NULL, &s, NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_send(s, "{\"textChanged\":{\"text\":\"\\u00e9\"}}", &batch) == CORELOGIC_OK);
    CHECK(contains(batch, "{\"start\":{\"id\":1,\"feedback\":\"debounce\""));
    corelogic_free(batch);
    CHECK(corelogic_system_send(s, "{\"textChanged\":{\"text\":\"e\\u0301\"}}", &batch) == CORELOGIC_OK);
    CHECK(contains(batch, "\"effects\":[{\"cancel\":1},{\"start\":{\"id\":2,\"feedback\":\"debounce\""));
    corelogic_free(batch);
    /* The first timer's late answer is stale; the second's text is the query. */
    CHECK(corelogic_system_deliver(s, 1, "{\"debounceElapsed\":{\"text\":\"\\u00e9\"}}", NULL) == CORELOGIC_STALE);
    CHECK(corelogic_system_deliver(s, 2, "{\"debounceElapsed\":{\"text\":\"e\\u0301\"}}", &batch) == CORELOGIC_OK);
    CHECK(contains(batch, "\"feedback\":\"search\",\"request\":{\"query\":\"e\xcc\x81\"}"));
    corelogic_free(batch);
    /* Results for the other spelling are not this query's. */
    CHECK(corelogic_system_deliver(s, 3, "{\"resultsLoaded\":{\"query\":\"\\u00e9\",\"matches\":[]}}", &batch) == CORELOGIC_OK);
    CHECK(!contains(batch, "\"resultsQuery\""));
    corelogic_free(batch);
    corelogic_system_free(s);
}

/* ---- Small ones ------------------------------------------------------------------- */

static void test_negative_zero_and_duplicate_keys(void) {
    corelogic_system s = 0;
    char *state = NULL;
    CHECK(corelogic_system_new("search", "{\"query\":\"\",\"items\":[],\"shouldLoadNextPage\":false,"
                               "\"lastError\":{\"rateLimited\":{\"retryAfter\":-0}}}", &s, NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_state(s, &state) == CORELOGIC_OK);
    CHECK(contains(state, "{\"rateLimited\":{\"retryAfter\":-0.0}}"));
    corelogic_free(state);
    corelogic_system_free(s);
    /* An integer field reads -0 as 0. */
    CHECK(corelogic_system_new("counter", "{\"count\":-0}", &s, NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_state(s, &state) == CORELOGIC_OK);
    CHECK(contains(state, "{\"count\":0}"));
    corelogic_free(state);
    /* Duplicate keys are rejected (ERR_JSON), as the header says. */
    char *batch = (char *)1;
    CHECK(corelogic_system_send(s, "{\"increment\":{},\"increment\":{}}", &batch) == CORELOGIC_ERR_JSON);
    CHECK(batch == NULL);
    CHECK(contains(corelogic_last_error(), "duplicate"));
    corelogic_system_free(s);
}

/* ---- A dropped queued input has its trace line ------------------------------------ */

static const char *dropping_dir;
static void remove_directory_then_queue(void *context, const char *state) {
    (void)context;
    (void)state;
    if (!queue_once) return;
    queue_once = 0;
    remove_tree(dropping_dir); /* the queued input's record can no longer be written */
    queued_status = corelogic_system_send(queuing, "\"increment\"", NULL);
}

/* The trace has a line for every input, refusals included: an input a handler queued
 * that is dropped because its record fails gets an error line in its turn. */
static void test_dropped_queued_input_is_traced(void) {
    dropping_dir = path_in("dropped");
    const char *trace = path_in("dropped.trace.jsonl");
    CHECK(corelogic_system_new("counter", NULL, &queuing, NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_open_journal(queuing, dropping_dir, CORELOGIC_DURABILITY_EVERY_INPUT) == CORELOGIC_OK);
    CHECK(corelogic_system_trace(queuing, trace) == CORELOGIC_OK);
    CHECK(corelogic_system_on_state(queuing, remove_directory_then_queue, NULL) == CORELOGIC_OK);
    queue_once = 1;
    queued_status = -100;
    char *batch = NULL;
    CHECK(corelogic_system_send(queuing, "\"increment\"", &batch) == CORELOGIC_OK);
    CHECK(queued_status == CORELOGIC_OK);
    CHECK(contains(batch, "\"steps\":1,\"dropped\":[{\"input\":{\"send\":{\"increment\":{}}},\"status\":\"CORELOGIC_ERR_IO\""));
    corelogic_free(batch);
    CHECK(corelogic_system_free(queuing) == CORELOGIC_OK);
    char *text = read_file(trace, NULL);
    CHECK(text != NULL);
    int lines = 0;
    for (const char *p = text; p && *p; p++) lines += *p == '\n';
    CHECK(lines == 3); /* the first line, the outer input, the dropped one */
    const char *dropped = text ? strstr(text, "{\"seq\":2,") : NULL;
    CHECK(contains(dropped, "{\"seq\":2,\"input\":\"send\",\"event\":{\"increment\":{}},\"status\":\"error:io\",\"message\":\"journal segment "));
    if (text && !contains(dropped, "\"status\":\"error:io\"")) fprintf(stderr, "  trace:\n%s", text);
    free(text);
    unlink(trace);
}

/* ---- Integers: exactly the ones that fit ------------------------------------------- */

/* An integer field takes a number whose value is an integer that fits, however it is
 * written, and refuses every other number (ERR_SCHEMA), on both sides of the range:
 * nothing is rounded into range. */
static void test_integers_outside_the_range_are_refused(void) {
    const char *refused[] = {
        "-9223372036854775809", "-9223372036854776000", "-9223372036854776832", "-9223372036854776833",
        "-9223372036854775809.0", "-9.223372036854775809e18", "-92233720368547758090e-1",
        "9223372036854775808", "9223372036854775808.0", "9.223372036854775808e18", "18446744073709551616",
        "1e19", "-1e19", "0.5", "-9223372036854775807.5",
    };
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        char state[128];
        snprintf(state, sizeof state, "{\"count\":%s}", refused[i]);
        corelogic_system s = 0;
        int rc = corelogic_system_new("counter", state, &s, NULL);
        CHECK(rc == CORELOGIC_ERR_SCHEMA);
        if (rc != CORELOGIC_ERR_SCHEMA) fprintf(stderr, "  %s: %s\n", state, corelogic_status_name(rc));
        if (s) corelogic_system_free(s);
    }
    const char *accepted[][2] = {
        {"-9223372036854775808", "-9223372036854775808"},
        {"-9223372036854775808.0", "-9223372036854775808"},
        {"-9.223372036854775808e18", "-9223372036854775808"},
        {"9223372036854775807", "9223372036854775807"},
        {"9223372036854775807.000", "9223372036854775807"},
        {"9007199254740993.0", "9007199254740993"},
        {"1e3", "1000"},
        {"12.50e1", "125"},
        {"-0.0", "0"},
    };
    for (size_t i = 0; i < sizeof accepted / sizeof *accepted; i++) {
        char state[128], expected[128];
        snprintf(state, sizeof state, "{\"count\":%s}", accepted[i][0]);
        snprintf(expected, sizeof expected, "{\"count\":%s}", accepted[i][1]);
        corelogic_system s = 0;
        CHECK(corelogic_system_new("counter", state, &s, NULL) == CORELOGIC_OK);
        char *json = state_json(s);
        CHECK(strcmp(json, expected) == 0);
        if (strcmp(json, expected) != 0) fprintf(stderr, "  %s read as %s\n", state, json);
        free(json);
        corelogic_system_free(s);
    }
}

/* ---- Error messages keep what follows a NUL ---------------------------------------- */

/* A name holding \u0000 is escaped in the message, so the message (a C string) goes on
 * to the list of valid names. */
static void test_names_with_nul_are_escaped_in_messages(void) {
    corelogic_system s = 0;
    CHECK(corelogic_system_new("counter", NULL, &s, NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_send(s, "{\"in\\u0000crement\":{}}", NULL) == CORELOGIC_ERR_SCHEMA);
    CHECK(contains(corelogic_last_error(), "in\\u0000crement"));
    CHECK(contains(corelogic_last_error(), "valid cases: increment, decrement"));
    CHECK(corelogic_system_send(s, "\"in\\u0000crement\"", NULL) == CORELOGIC_ERR_SCHEMA);
    CHECK(contains(corelogic_last_error(), "valid cases: increment, decrement"));
    CHECK(corelogic_system_watch_queries(s, "[\"is\\u0000Zero\"]", NULL) == CORELOGIC_ERR_NOT_FOUND);
    CHECK(contains(corelogic_last_error(), "is\\u0000Zero"));
    CHECK(contains(corelogic_last_error(), "queries: isZero"));
    corelogic_system_free(s);
}

int main(void) {
    snprintf(root, sizeof root, "/tmp/corelogic-contract-XXXXXX");
    if (!mkdtemp(root)) { perror("mkdtemp"); return 1; }
    test_queued_input_whose_record_fails(1);
    test_queued_input_whose_record_fails(0);
    test_outer_record_fails_first();
    test_free_in_handler_releases_directory();
    test_free_from_another_thread_releases_directory();
    test_directory_replaced();
    test_directory_moved();
    test_requests_are_json_identical_or_different();
    test_negative_zero_and_duplicate_keys();
    test_dropped_queued_input_is_traced();
    test_integers_outside_the_range_are_refused();
    test_names_with_nul_are_escaped_in_messages();
    const char *names[] = {"queued-pull", "queued-push", "outer-fails", "free-handler", "free-thread",
                           "replaced", "moved", "moved-away", "moved-copy", "dropped"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) remove_tree(path_in(names[i]));
    rmdir(root);
    return CHECK_SUMMARY("contract");
}
