/* Journals, checkpoints and restore through the C ABI (include/corelogic.h,
 * "Persistence"; formats in docs/persistence.md).
 * Ends with "persistence: N passed, N failed"; exit status 1 on any failure. */
#include "persist_util.h"
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include "check.h"

static void test_round_trip(void) {
    const char *dir = path_in("round-trip");
    corelogic_system s = 0;
    unsigned long long max_id = 0;
    CHECK(corelogic_system_new("downloads", "{\"maxConcurrent\":2,\"pending\":[],\"finished\":[],\"failed\":[]}", &s, NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_open_journal(s, dir, CORELOGIC_DURABILITY_EVERY_INPUT) == CORELOGIC_OK);
    CHECK(send_tracking(s, "{\"enqueue\":{\"url\":\"a\"}}", &max_id) == CORELOGIC_OK);
    CHECK(send_tracking(s, "{\"enqueue\":{\"url\":\"b\"}}", &max_id) == CORELOGIC_OK);
    CHECK(send_tracking(s, "{\"enqueue\":{\"url\":\"c\"}}", &max_id) == CORELOGIC_OK);
    CHECK(max_id == 2);
    /* Rejected and stale inputs are never journaled. */
    CHECK(corelogic_system_send(s, "{\"enqueue\":", NULL) == CORELOGIC_ERR_JSON);
    CHECK(corelogic_system_send(s, "{\"nope\":{}}", NULL) == CORELOGIC_ERR_SCHEMA);
    CHECK(corelogic_system_deliver(s, 99, "{\"finished\":{\"url\":\"a\"}}", NULL) == CORELOGIC_STALE);
    char *batch = NULL;
    CHECK(corelogic_system_deliver(s, 1, "{\"finished\":{\"url\":\"a\"}}", &batch) == CORELOGIC_OK);
    unsigned long long low, high;
    start_id_range(batch, &low, &high);
    if (high > max_id) max_id = high;
    corelogic_free(batch);
    CHECK(corelogic_system_complete(s, 2, NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_complete(s, 2, NULL) == CORELOGIC_STALE);
    char *expected = state_json(s);
    char segment[600];
    CHECK(last_segment(dir, segment, sizeof segment) == 0);
    size_t size = 0;
    char *text = read_file(segment, &size);
    int lines = 0;
    for (size_t i = 0; i < size; i++) lines += text[i] == '\n';
    CHECK(lines == 1 + 5); /* header + 3 sends, 1 deliver, 1 complete */
    CHECK(contains(text, "\"seq\":4,\"next\":3,\"deliver\":{\"effect\":1,\"event\":{\"finished\":{\"url\":\"a\"}}}"));
    CHECK(contains(text, "\"complete\":{\"effect\":2}"));
    free(text);
    /* While the journal is open, nobody else may open the directory. */
    corelogic_system other = 0;
    CHECK(corelogic_system_restore("downloads", dir, &other, NULL, NULL) == CORELOGIC_ERR_IO);
    CHECK(contains(corelogic_last_error(), "in use"));
    CHECK(other == 0);
    CHECK(corelogic_system_free(s) == CORELOGIC_OK);

    char *report = NULL;
    s = restore_and_check("downloads", dir, expected, max_id, &report);
    CHECK(contains(report, "\"snapshot\":true"));
    CHECK(contains(report, "\"seq\":5,\"replayed\":5"));
    CHECK(contains(report, "\"tornTail\":null"));
    CHECK(contains(report, "\"durability\":\"every-input\""));
    corelogic_free(report);
    /* The restored system journals on; a second restore sees everything. */
    char *effects = NULL;
    CHECK(corelogic_system_effects(s, &effects) == CORELOGIC_OK);
    const char *id = strstr(effects ? effects : "", "\"id\":");
    unsigned long long running = id ? strtoull(id + 5, NULL, 10) : 0;
    CHECK(running > max_id);
    corelogic_free(effects);
    max_id = running + 1;
    CHECK(corelogic_system_complete(s, running, NULL) == CORELOGIC_OK);
    CHECK(send_tracking(s, "{\"enqueue\":{\"url\":\"d\"}}", &max_id) == CORELOGIC_OK);
    free(expected);
    expected = state_json(s);
    CHECK(count_segments(dir) == 1);
    CHECK(corelogic_system_free(s) == CORELOGIC_OK);
    check_restores("downloads", dir, expected, max_id, "\"seq\":7,\"replayed\":2", NULL);
    free(expected);
}

static void test_checkpoint(void) {
    const char *dir = path_in("checkpoint");
    corelogic_system s = 0;
    CHECK(corelogic_system_new("counter", NULL, &s, NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_checkpoint(s) == CORELOGIC_ERR_ARG);
    CHECK(corelogic_system_sync_journal(s) == CORELOGIC_ERR_ARG);
    CHECK(corelogic_system_close_journal(s) == CORELOGIC_OK);
    CHECK(corelogic_system_send(s, "\"increment\"", NULL) == CORELOGIC_OK); /* before the journal */
    CHECK(corelogic_system_open_journal(s, dir, CORELOGIC_DURABILITY_INTERVAL) == CORELOGIC_OK);
    CHECK(corelogic_system_open_journal(s, dir, CORELOGIC_DURABILITY_INTERVAL) == CORELOGIC_ERR_ARG);
    for (int i = 0; i < 10; i++) CHECK(corelogic_system_send(s, "\"increment\"", NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_checkpoint(s) == CORELOGIC_OK);
    CHECK(corelogic_system_checkpoint(s) == CORELOGIC_OK); /* twice in a row: same segment name */
    CHECK(count_segments(dir) == 1);
    for (int i = 0; i < 3; i++) CHECK(corelogic_system_send(s, "\"decrement\"", NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_sync_journal(s) == CORELOGIC_OK);
    size_t size = 0;
    char *snapshot = read_file(path_in("checkpoint/snapshot.json"), &size);
    CHECK(contains(snapshot, "{\"corelogic\":\"snapshot\",\"format\":1,\"feature\":\"counter\",\"stateVersion\":1,\"seq\":10,"));
    CHECK(contains(snapshot, "\"durability\":\"interval\",\"state\":{\"count\":11},\"crc32\":\""));
    free(snapshot);
    CHECK(corelogic_system_close_journal(s) == CORELOGIC_OK);
    CHECK(corelogic_system_send(s, "\"decrement\"", NULL) == CORELOGIC_OK); /* not journaled */
    corelogic_system_free(s);
    check_restores("counter", dir, "{\"count\":8}", 0, "\"seq\":13,\"replayed\":3", "\"durability\":\"interval\"", NULL);
}

static void test_arguments(void) {
    corelogic_system s = 0;
    char *report = (char *)1, *batch = (char *)1;
    CHECK(corelogic_system_restore("counter", path_in("missing"), &s, &report, &batch) == CORELOGIC_ERR_IO);
    CHECK(contains(corelogic_last_error(), "missing"));
    CHECK(s == 0 && report == NULL && batch == NULL);
    CHECK(corelogic_system_restore(NULL, root, &s, NULL, NULL) == CORELOGIC_ERR_ARG);
    CHECK(corelogic_system_restore("counter", NULL, &s, NULL, NULL) == CORELOGIC_ERR_ARG);
    CHECK(corelogic_system_restore("counter", root, NULL, NULL, NULL) == CORELOGIC_ERR_ARG);
    CHECK(corelogic_system_restore("nope", root, &s, NULL, NULL) == CORELOGIC_ERR_NOT_FOUND);
    CHECK(corelogic_system_open_journal(0, root, 0) == CORELOGIC_ERR_HANDLE);
    CHECK(corelogic_system_checkpoint(0) == CORELOGIC_ERR_HANDLE);
    CHECK(corelogic_system_sync_journal(12345) == CORELOGIC_ERR_HANDLE);
    CHECK(corelogic_system_close_journal(0) == CORELOGIC_ERR_HANDLE);
    CHECK(corelogic_system_new("counter", NULL, &s, NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_open_journal(s, NULL, 0) == CORELOGIC_ERR_ARG);
    CHECK(corelogic_system_open_journal(s, "", 0) == CORELOGIC_ERR_ARG);
    CHECK(corelogic_system_open_journal(s, path_in("bad-mode"), 7) == CORELOGIC_ERR_ARG);
    CHECK(corelogic_system_open_journal(s, "/proc/no/such/dir", 0) == CORELOGIC_ERR_IO);
    /* A directory that already holds a journal is restored, not reopened. */
    CHECK(corelogic_system_open_journal(s, path_in("checkpoint"), 0) == CORELOGIC_ERR_ARG);
    CHECK(contains(corelogic_last_error(), "already holds a journal"));
    CHECK(corelogic_system_send(s, "\"increment\"", NULL) == CORELOGIC_OK);
    corelogic_system_free(s);
    /* Another feature's directory. */
    CHECK(corelogic_system_restore("downloads", path_in("checkpoint"), &s, NULL, NULL) == CORELOGIC_ERR_CORRUPT);
    CHECK(contains(corelogic_last_error(), "snapshot of feature 'counter', not 'downloads'"));
}

static void test_empty_directory(void) {
    const char *dir = path_in("empty");
    mkdir(dir, 0755);
    char *report = NULL;
    corelogic_system s = restore_and_check("downloads", dir, "{\"maxConcurrent\":3,\"pending\":[],\"finished\":[],\"failed\":[]}", 0, &report);
    CHECK(contains(report, "\"snapshot\":false"));
    CHECK(contains(report, "\"seq\":0,\"replayed\":0,\"firstEffectId\":1"));
    corelogic_free(report);
    CHECK(corelogic_system_send(s, "{\"enqueue\":{\"url\":\"x\"}}", NULL) == CORELOGIC_OK);
    corelogic_system_free(s);
    check_restores("downloads", dir, "{\"maxConcurrent\":3,\"pending\":[\"x\"],\"finished\":[],\"failed\":[]}", 1, NULL);
}

/* A journal of counter inputs ending with one more record; returns the state before
 * that last record and after it. */
static void make_counter_journal(const char *dir, int inputs) {
    remove_tree(dir);
    corelogic_system s = 0;
    CHECK(corelogic_system_new("counter", NULL, &s, NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_open_journal(s, dir, CORELOGIC_DURABILITY_INTERVAL) == CORELOGIC_OK);
    for (int i = 0; i < inputs; i++) CHECK(corelogic_system_send(s, i % 3 == 2 ? "\"decrement\"" : "\"increment\"", NULL) == CORELOGIC_OK);
    corelogic_system_free(s);
}

/* The bytes of the last segment in `dir` (*size: their length) and where its last record
 * starts. Caller frees. */
static char *last_segment_text(const char *dir, size_t *size, size_t *last_start) {
    char segment[600];
    CHECK(last_segment(dir, segment, sizeof segment) == 0);
    char *text = read_file(segment, size);
    size_t start = *size - 1;
    while (start > 0 && text[start - 1] != '\n') start--;
    *last_start = start;
    return text;
}

static void test_torn_tail(void) {
    const char *dir = path_in("torn-source"), *work = path_in("torn-work");
    make_counter_journal(dir, 6); /* counts 1,2,1,2,3,2 */
    char work_segment[600];
    size_t size = 0, last_start = 0;
    char *text = last_segment_text(dir, &size, &last_start);
    int cases = 0, clean = 0;
    for (size_t cut = last_start; cut < size; cut++) {
        copy_tree(dir, work);
        CHECK(last_segment(work, work_segment, sizeof work_segment) == 0);
        CHECK(truncate(work_segment, (off_t)cut) == 0);
        char *report = NULL;
        corelogic_system s = restore_and_check("counter", work, "{\"count\":3}", 0, &report);
        if (cut == last_start) {
            CHECK(contains(report, "\"tornTail\":null"));
        } else {
            char expected[700];
            snprintf(expected, sizeof expected, "\"tornTail\":{\"file\":\"%s\",\"offset\":%zu,\"bytes\":%zu}", work_segment, last_start, cut - last_start);
            CHECK(contains(report, expected));
            if (!contains(report, expected)) fprintf(stderr, "  report %s\n  wanted %s\n", report ? report : "(null)", expected);
        }
        CHECK(contains(report, "\"seq\":5,\"replayed\":5"));
        corelogic_free(report);
        /* The restored journal is clean again: the next restore has no torn tail. */
        CHECK(corelogic_system_send(s, "\"decrement\"", NULL) == CORELOGIC_OK);
        corelogic_system_free(s);
        check_restores("counter", work, "{\"count\":2}", 0, "\"tornTail\":null", NULL);
        cases++;
        clean += cut == last_start;
    }
    /* A complete last line whose bytes did not all reach the disk (an OS crash): its
     * checksum fails, and it is a torn tail too. */
    copy_tree(dir, work);
    last_segment(work, work_segment, sizeof work_segment);
    text[last_start + 3] = 0;
    write_file(work_segment, text, size);
    check_restores("counter", work, "{\"count\":3}", 0, "\"seq\":5,\"replayed\":5", "\"tornTail\":{", NULL);
    printf("torn tail: %d truncations of the last record (%zu bytes) restored cleanly\n", cases, size - last_start);
    free(text);
}

static void test_corruption(void) {
    const char *dir = path_in("corrupt-source"), *work = path_in("corrupt-work");
    make_counter_journal(dir, 5);
    char work_segment[600];
    size_t size = 0, last_start = 0;
    char *text = last_segment_text(dir, &size, &last_start);
    int flips = 0;
    for (size_t at = 0; at < last_start; at++) {
        int line = 1;
        for (size_t i = 0; i < at; i++) line += text[i] == '\n';
        copy_tree(dir, work);
        last_segment(work, work_segment, sizeof work_segment);
        char *copy = malloc(size);
        memcpy(copy, text, size);
        copy[at] ^= 0x01;
        write_file(work_segment, copy, size);
        free(copy);
        corelogic_system s = 0;
        int rc = corelogic_system_restore("counter", work, &s, NULL, NULL);
        CHECK(rc == CORELOGIC_ERR_CORRUPT);
        CHECK(s == 0);
        char expected[700];
        snprintf(expected, sizeof expected, "%s line %d", work_segment, line);
        CHECK(contains(corelogic_last_error(), expected));
        if (!contains(corelogic_last_error(), expected)) fprintf(stderr, "  flip at %zu: %s\n", at, corelogic_last_error());
        if (rc == CORELOGIC_OK) corelogic_system_free(s);
        flips++;
    }
    free(text);
    /* The snapshot: every byte flip is corruption too. */
    char snapshot_path[600];
    snprintf(snapshot_path, sizeof snapshot_path, "%s/snapshot.json", dir);
    text = read_file(snapshot_path, &size);
    int snapshot_flips = 0;
    for (size_t at = 0; at < size; at++) {
        copy_tree(dir, work);
        char *copy = malloc(size);
        memcpy(copy, text, size);
        copy[at] ^= 0x01;
        char target[600];
        snprintf(target, sizeof target, "%s/snapshot.json", work);
        write_file(target, copy, size);
        free(copy);
        corelogic_system s = 0;
        CHECK(corelogic_system_restore("counter", work, &s, NULL, NULL) == CORELOGIC_ERR_CORRUPT);
        CHECK(contains(corelogic_last_error(), "snapshot.json"));
        snapshot_flips++;
    }
    free(text);
    /* A missing segment: the records between the snapshot and the next one are gone. */
    copy_tree(dir, work);
    last_segment(work, work_segment, sizeof work_segment);
    char renamed[600];
    snprintf(renamed, sizeof renamed, "%s/journal-00000000000000000003.jsonl", work);
    CHECK(rename(work_segment, renamed) == 0);
    corelogic_system s = 0;
    CHECK(corelogic_system_restore("counter", work, &s, NULL, NULL) == CORELOGIC_ERR_CORRUPT);
    CHECK(contains(corelogic_last_error(), "records 1...2 are missing"));
    /* A lost snapshot: the segments alone do not say which state they continue. */
    copy_tree(dir, work);
    char lost[600];
    snprintf(lost, sizeof lost, "%s/snapshot.json", work);
    CHECK(unlink(lost) == 0);
    CHECK(corelogic_system_restore("counter", work, &s, NULL, NULL) == CORELOGIC_ERR_CORRUPT);
    CHECK(contains(corelogic_last_error(), "snapshot.json is missing"));
    printf("corruption: %d byte flips in earlier journal lines and %d in the snapshot, each ERR_CORRUPT naming file and line\n", flips, snapshot_flips);
}

static void test_versions(void) {
    const char *dir = path_in("versions");
    remove_tree(dir);
    mkdir(dir, 0755);
    char snapshot[600];
    snprintf(snapshot, sizeof snapshot, "%s/snapshot.json", dir);
    corelogic_system s = 0;
    /* A newer state version than this build reads. */
    write_sealed_line(snapshot, "{\"corelogic\":\"snapshot\",\"format\":1,\"feature\":\"counter\",\"stateVersion\":7,"
                                "\"seq\":0,\"next\":1,\"durability\":\"every-input\",\"state\":{\"count\":5}");
    CHECK(corelogic_system_restore("counter", dir, &s, NULL, NULL) == CORELOGIC_ERR_CORRUPT);
    CHECK(contains(corelogic_last_error(), "state version 7, newer than version 1"));
    /* An older version and a feature without a migration. */
    write_sealed_line(snapshot, "{\"corelogic\":\"snapshot\",\"format\":1,\"feature\":\"counter\",\"stateVersion\":0,"
                                "\"seq\":0,\"next\":1,\"durability\":\"every-input\",\"state\":{\"count\":5}");
    CHECK(corelogic_system_restore("counter", dir, &s, NULL, NULL) == CORELOGIC_ERR_CORRUPT);
    CHECK(contains(corelogic_last_error(), "state version 0, this build reads version 1 and has no migration"));
    /* A well-formed snapshot written by hand restores (the format is the documented one). */
    write_sealed_line(snapshot, "{\"corelogic\":\"snapshot\",\"format\":1,\"feature\":\"counter\",\"stateVersion\":1,"
                                "\"seq\":4,\"next\":1,\"durability\":\"every-input\",\"state\":{\"count\":5}");
    check_restores("counter", dir, "{\"count\":5}", 0, "\"seq\":4,\"replayed\":0", NULL);
    /* A state that does not decode is corruption naming the snapshot. */
    write_sealed_line(snapshot, "{\"corelogic\":\"snapshot\",\"format\":1,\"feature\":\"counter\",\"stateVersion\":1,"
                                "\"seq\":4,\"next\":1,\"durability\":\"every-input\",\"state\":{\"count\":\"five\"}");
    CHECK(corelogic_system_restore("counter", dir, &s, NULL, NULL) == CORELOGIC_ERR_CORRUPT);
    CHECK(contains(corelogic_last_error(), "snapshot.json: the state does not decode"));
}

static int checkpoints_in_handler;
static corelogic_system handler_system;
static void checkpoint_on_command(void *context, const char *command) {
    (void)context;
    (void)command;
    if (corelogic_system_checkpoint(handler_system) == CORELOGIC_OK) checkpoints_in_handler++;
}

static void test_checkpoint_in_handler(void) {
    const char *dir = path_in("handler");
    CHECK(corelogic_system_new("downloads", NULL, &handler_system, NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_open_journal(handler_system, dir, 0) == CORELOGIC_OK);
    CHECK(corelogic_system_on_command(handler_system, checkpoint_on_command, NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_send(handler_system, "{\"enqueue\":{\"url\":\"a\"}}", NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_send(handler_system, "{\"enqueue\":{\"url\":\"b\"}}", NULL) == CORELOGIC_OK);
    CHECK(checkpoints_in_handler == 2);
    char *expected = state_json(handler_system);
    corelogic_system_free(handler_system);
    check_restores("downloads", dir, expected, 2, "\"seq\":2,\"replayed\":0", NULL);
    free(expected);
}

/* Inputs a handler makes while the system drains are queued, and journaled when they
 * run, in the order they run. */
static void test_reentrant_inputs(void) {
    const char *dir = path_in("reentrant");
    CHECK(corelogic_system_new("downloads", NULL, &answering, NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_open_journal(answering, dir, CORELOGIC_DURABILITY_EVERY_INPUT) == CORELOGIC_OK);
    CHECK(corelogic_system_on_command(answering, answer_at_once, NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_send(answering, "{\"enqueue\":{\"url\":\"a\"}}", NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_send(answering, "{\"enqueue\":{\"url\":\"b\"}}", NULL) == CORELOGIC_OK);
    char *expected = state_json(answering);
    CHECK(contains(expected, "\"finished\":[\"a\",\"b\"]"));
    corelogic_system_free(answering);
    check_restores("downloads", dir, expected, 2, "\"seq\":4,\"replayed\":4", NULL);
    free(expected);
}

/* A record that cannot be written (here: the file size limit cuts it short) rejects the
 * input with ERR_IO, leaves the state as it was and no part of the record in the file. */
static void test_write_failure(void) {
    const char *dir = path_in("full");
    corelogic_system s = 0;
    CHECK(corelogic_system_new("counter", NULL, &s, NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_open_journal(s, dir, CORELOGIC_DURABILITY_EVERY_INPUT) == CORELOGIC_OK);
    for (int i = 0; i < 3; i++) CHECK(corelogic_system_send(s, "\"increment\"", NULL) == CORELOGIC_OK);
    char segment[600];
    CHECK(last_segment(dir, segment, sizeof segment) == 0);
    struct stat before, after;
    CHECK(stat(segment, &before) == 0);
    struct rlimit old;
    CHECK(limit_file_size(before.st_size + 10, &old) == 0);
    char *batch = (char *)1;
    CHECK(corelogic_system_send(s, "\"increment\"", &batch) == CORELOGIC_ERR_IO);
    CHECK(batch == NULL);
    CHECK(contains(corelogic_last_error(), segment));
    setrlimit(RLIMIT_FSIZE, &old);
    char *state = state_json(s);
    CHECK(strcmp(state, "{\"count\":3}") == 0);
    free(state);
    CHECK(stat(segment, &after) == 0);
    CHECK(after.st_size == before.st_size);
    CHECK(corelogic_system_send(s, "\"decrement\"", NULL) == CORELOGIC_OK);
    corelogic_system_free(s);
    check_restores("counter", dir, "{\"count\":2}", 0, "\"seq\":4,\"replayed\":4,", "\"tornTail\":null", NULL);
}

/* Threads sending while another checkpoints: every input is journaled exactly once and
 * each checkpoint is a consistent point of the history. */
static corelogic_system threaded;
static void *send_many(void *arg) {
    (void)arg;
    for (int i = 0; i < 300; i++)
        if (corelogic_system_send(threaded, "\"increment\"", NULL) != CORELOGIC_OK) return (void *)1;
    return NULL;
}
static void *checkpoint_many(void *arg) {
    (void)arg;
    for (int i = 0; i < 20; i++)
        if (corelogic_system_checkpoint(threaded) != CORELOGIC_OK) return (void *)1;
    return NULL;
}

static void test_threads(void) {
    const char *dir = path_in("threads");
    CHECK(corelogic_system_new("counter", NULL, &threaded, NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_open_journal(threaded, dir, CORELOGIC_DURABILITY_INTERVAL) == CORELOGIC_OK);
    pthread_t threads[5];
    for (int i = 0; i < 4; i++) pthread_create(&threads[i], NULL, send_many, NULL);
    pthread_create(&threads[4], NULL, checkpoint_many, NULL);
    for (int i = 0; i < 5; i++) {
        void *result = NULL;
        pthread_join(threads[i], &result);
        CHECK(result == NULL);
    }
    corelogic_system_free(threaded);
    check_restores("counter", dir, "{\"count\":1200}", 0, "\"seq\":1200,", NULL);
}

/* Paths are bytes: a directory whose name is not UTF-8 is used as it is, never a
 * look-alike. Restoring a neighbour that differs in one such byte and does not exist is
 * ERR_IO (missing directory), not the state of the journal next to it. */
static void test_paths_are_bytes(void) {
    char *dir = strdup(path_in("bytes-j\xff"));
    char *neighbour = strdup(path_in("bytes-j\xfe"));
    char *replaced = strdup(path_in("bytes-j\xef\xbf\xbd")); /* \xff read as U+FFFD */
    corelogic_system s = 0;
    CHECK(corelogic_system_new("counter", NULL, &s, NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_open_journal(s, dir, CORELOGIC_DURABILITY_EVERY_INPUT) == CORELOGIC_OK);
    CHECK(corelogic_system_send(s, "\"increment\"", NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_send(s, "\"increment\"", NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_free(s) == CORELOGIC_OK);
    struct stat info;
    CHECK(stat(dir, &info) == 0 && S_ISDIR(info.st_mode));
    CHECK(stat(replaced, &info) != 0);
    char snapshot[600];
    snprintf(snapshot, sizeof snapshot, "%s/snapshot.json", dir);
    CHECK(stat(snapshot, &info) == 0);

    s = 0;
    char *report = (char *)1;
    CHECK(corelogic_system_restore("counter", neighbour, &s, &report, NULL) == CORELOGIC_ERR_IO);
    CHECK(s == 0 && report == NULL);
    /* The message shows the byte that is not UTF-8 as an escape. */
    CHECK(contains(corelogic_last_error(), "bytes-j\\xfe"));
    if (s) corelogic_system_free(s);
    CHECK(stat(neighbour, &info) != 0);

    s = restore_and_check("counter", dir, "{\"count\":2}", 0, NULL);
    CHECK(corelogic_system_checkpoint(s) == CORELOGIC_OK);
    CHECK(corelogic_system_send(s, "\"increment\"", NULL) == CORELOGIC_OK);
    corelogic_system_free(s);
    check_restores("counter", dir, "{\"count\":3}", 0, NULL);
    CHECK(stat(replaced, &info) != 0);
    remove_tree(dir);
    free(dir);
    free(neighbour);
    free(replaced);
}

int main(void) {
    snprintf(root, sizeof root, "/tmp/corelogic-persist-XXXXXX");
    if (!mkdtemp(root)) { perror("mkdtemp"); return 1; }
    test_round_trip();
    test_checkpoint();
    test_arguments();
    test_paths_are_bytes();
    test_empty_directory();
    test_torn_tail();
    test_corruption();
    test_versions();
    test_checkpoint_in_handler();
    test_reentrant_inputs();
    test_write_failure();
    test_threads();
    const char *names[] = {"round-trip", "checkpoint", "bad-mode", "empty", "torn-source", "torn-work",
                           "corrupt-source", "corrupt-work", "versions", "handler", "full", "threads", "reentrant"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) remove_tree(path_in(names[i]));
    rmdir(root);
    return CHECK_SUMMARY("persistence");
}
