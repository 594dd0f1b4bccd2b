/* Helpers shared by the persistence tests: files, directories, batch parsing, CRC-32. */
#ifndef PERSIST_UTIL_H
#define PERSIST_UTIL_H
#define _GNU_SOURCE
#include <corelogic.h>
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <stdarg.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "fs_util.h"

static __attribute__((unused)) int write_file(const char *path, const char *data, size_t size) {
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    size_t n = fwrite(data, 1, size, f);
    fclose(f);
    return n == size ? 0 : -1;
}


/* Copies the regular files of `from` into a fresh directory `to`. */
static __attribute__((unused)) int copy_tree(const char *from, const char *to) {
    remove_tree(to);
    if (mkdir(to, 0755) != 0) return -1;
    DIR *d = opendir(from);
    if (!d) return -1;
    struct dirent *e;
    char src[4096], dst[4096];
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        snprintf(src, sizeof src, "%s/%s", from, e->d_name);
        snprintf(dst, sizeof dst, "%s/%s", to, e->d_name);
        size_t size = 0;
        char *data = read_file(src, &size);
        if (!data) continue;
        write_file(dst, data, size);
        free(data);
    }
    closedir(d);
    return 0;
}

/* The path of the segment with the highest first seq in `dir` into `out`; 0 if found. */
static __attribute__((unused)) int last_segment(const char *dir, char *out, size_t size) {
    DIR *d = opendir(dir);
    if (!d) return -1;
    struct dirent *e;
    char best[256] = "";
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (strncmp(e->d_name, "journal-", 8) == 0 && n > 6 && strcmp(e->d_name + n - 6, ".jsonl") == 0 &&
            strcmp(e->d_name, best) > 0)
            snprintf(best, sizeof best, "%s", e->d_name);
    }
    closedir(d);
    if (!best[0]) return -1;
    snprintf(out, size, "%s/%s", dir, best);
    return 0;
}

static __attribute__((unused)) int count_segments(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return -1;
    struct dirent *e;
    int count = 0;
    while ((e = readdir(d)) != NULL)
        if (strncmp(e->d_name, "journal-", 8) == 0) count++;
    closedir(d);
    return count;
}

/* The effects array of a batch with the start ids removed, so two batches that start
 * the same requests in the same order compare equal. Caller frees. */
static char *effects_without_ids(const char *batch) {
    const char *start = batch ? strstr(batch, "\"effects\":") : NULL;
    const char *end = batch ? strstr(batch, ",\"steps\":") : NULL;
    if (!start || !end || end < start) return strdup("<no effects>");
    char *out = malloc((size_t)(end - start) + 1);
    size_t o = 0;
    const char *key = "{\"start\":{\"id\":";
    size_t k = strlen(key);
    for (const char *p = start; p < end;) {
        if (strncmp(p, key, k) == 0) {
            memcpy(out + o, "{\"start\":{", 10);
            o += 10;
            p += k;
            while (*p >= '0' && *p <= '9') p++;
            if (*p == ',') p++;
        } else {
            out[o++] = *p++;
        }
    }
    out[o] = 0;
    return out;
}

/* Lowest and highest start id in a batch (0, 0 when none). */
static __attribute__((unused)) void start_id_range(const char *batch, unsigned long long *low, unsigned long long *high) {
    *low = 0;
    *high = 0;
    const char *key = "{\"start\":{\"id\":";
    for (const char *p = batch ? strstr(batch, key) : NULL; p; p = strstr(p + 1, key)) {
        unsigned long long id = strtoull(p + strlen(key), NULL, 10);
        if (*low == 0 || id < *low) *low = id;
        if (id > *high) *high = id;
    }
}

/* The state object of a batch. Caller frees. */
static char *state_of_batch(const char *batch) {
    const char *start = batch ? strstr(batch, "{\"state\":") : NULL;
    const char *end = batch ? strstr(batch, ",\"effects\":") : NULL;
    if (!start || !end) return strdup("<no state>");
    start += 9;
    return strndup(start, (size_t)(end - start));
}

static __attribute__((unused)) uint32_t crc32_of(const char *data, size_t size) {
    uint32_t crc = 0xFFFFFFFFu;
    for (size_t i = 0; i < size; i++) {
        crc ^= (unsigned char)data[i];
        for (int b = 0; b < 8; b++) crc = (crc & 1) ? 0xEDB88320u ^ (crc >> 1) : crc >> 1;
    }
    return crc ^ 0xFFFFFFFFu;
}

/* Writes `body` (a JSON object without its closing brace) as a sealed line to `path`. */
static __attribute__((unused)) int write_sealed_line(const char *path, const char *body) {
    char line[8192];
    snprintf(line, sizeof line, "%s,\"crc32\":\"%08x\"}\n", body, crc32_of(body, strlen(body)));
    return write_file(path, line, strlen(line));
}

/* The directory each test program works in (mkdtemp'd by main) and paths inside it. */
static char root[256];

static __attribute__((unused)) char *path_in(const char *name) {
    static char paths[8][512];
    static int next;
    char *out = paths[next++ % 8];
    snprintf(out, 512, "%s/%s", root, name);
    return out;
}

static __attribute__((unused)) char *state_json(corelogic_system s) {
    char *json = NULL;
    return corelogic_system_state(s, &json) == CORELOGIC_OK ? json : strdup("<no state>");
}

/* Sends `event` and returns the status; the batch's highest start id raises *max_id. */
static __attribute__((unused)) int send_tracking(corelogic_system s, const char *event, unsigned long long *max_id) {
    char *batch = NULL;
    int rc = corelogic_system_send(s, event, &batch);
    unsigned long long low, high;
    start_id_range(batch, &low, &high);
    if (max_id && high > *max_id) *max_id = high;
    corelogic_free(batch);
    return rc;
}

/* Restores `dir` and checks that the state equals `expected_state` and that the restore
 * batch starts exactly what a fresh system of that state starts, with ids above
 * `max_id_before`. Returns the system (caller frees) or 0. */
static __attribute__((unused)) corelogic_system restore_and_check(const char *feature, const char *dir, const char *expected_state,
                                          unsigned long long max_id_before, char **report_out) {
    corelogic_system s = 0;
    char *report = NULL, *batch = NULL;
    int rc = corelogic_system_restore(feature, dir, &s, &report, &batch);
    CHECK(rc == CORELOGIC_OK);
    if (rc != CORELOGIC_OK) return 0;
    char *state = state_of_batch(batch);
    CHECK(expected_state == NULL || strcmp(state, expected_state) == 0);
    if (expected_state && strcmp(state, expected_state) != 0)
        fprintf(stderr, "  restored %s\n  expected %s\n", state, expected_state);
    if (strlen(state) <= (16u << 20)) {
        corelogic_system fresh = 0;
        char *fresh_batch = NULL;
        CHECK(corelogic_system_new(feature, state, &fresh, &fresh_batch) == CORELOGIC_OK);
        char *a = effects_without_ids(batch), *b = effects_without_ids(fresh_batch);
        CHECK(strcmp(a, b) == 0);
        free(a);
        free(b);
        corelogic_free(fresh_batch);
        corelogic_system_free(fresh);
    } else {
        /* A state past the 16 MiB input limit (grown by many inputs) cannot be given to
         * corelogic_system_new: the batch starts exactly the effects now running. */
        char *effects = NULL;
        CHECK(corelogic_system_effects(s, &effects) == CORELOGIC_OK);
        int starts = 0, running = 0;
        for (const char *p = strstr(batch, "{\"start\":"); p; p = strstr(p + 1, "{\"start\":")) starts++;
        for (const char *p = strstr(effects, "{\"id\":"); p; p = strstr(p + 1, "{\"id\":")) running++;
        CHECK(starts == running);
        corelogic_free(effects);
    }
    unsigned long long low, high;
    start_id_range(batch, &low, &high);
    CHECK(low == 0 || low > max_id_before);
    free(state);
    corelogic_free(batch);
    if (report_out) *report_out = report; else corelogic_free(report);
    return s;
}

/* restore_and_check, then the restore report holds each of the strings that follow,
 * up to a NULL, and the restored system is freed: a journal restores to `expected_state`. */
static __attribute__((unused, sentinel)) void check_restores(const char *feature, const char *dir, const char *expected_state,
                                                             unsigned long long max_id_before, ...) {
    char *report = NULL;
    corelogic_system s = restore_and_check(feature, dir, expected_state, max_id_before, &report);
    va_list parts;
    va_start(parts, max_id_before);
    for (const char *part = va_arg(parts, const char *); part; part = va_arg(parts, const char *))
        CHECK(contains(report, part));
    va_end(parts);
    corelogic_free(report);
    corelogic_system_free(s);
}

/* Lowers the file size limit to `bytes`, with SIGXFSZ ignored so that a write past it
 * fails with EFBIG instead of ending the process; *old receives the limit to put back
 * with setrlimit(RLIMIT_FSIZE, old). 0 on success. */
static __attribute__((unused)) int limit_file_size(off_t bytes, struct rlimit *old) {
    signal(SIGXFSZ, SIG_IGN);
    getrlimit(RLIMIT_FSIZE, old);
    struct rlimit limited = *old;
    limited.rlim_cur = (rlim_t)bytes;
    return setrlimit(RLIMIT_FSIZE, &limited);
}

/* A downloads system whose command handler answers every download at once: a deliver
 * queued behind the step that started it. Set `answering` to the system first. */
static __attribute__((unused)) corelogic_system answering;
static __attribute__((unused)) void answer_at_once(void *context, const char *command) {
    (void)context;
    const char *start = strstr(command, "{\"start\":{\"id\":");
    const char *url = strstr(command, "\"url\":\"");
    if (!start || !url) return;
    unsigned long long id = strtoull(start + 15, NULL, 10);
    url += 7;
    /* On the stack (fault_test.c's malloc may be armed to fail), large enough for the
     * 4 KB urls of tinyfs_test.c. */
    char event[8192];
    snprintf(event, sizeof event, "{\"finished\":{\"url\":\"%.*s\"}}", (int)(strchr(url, '"') - url), url);
    corelogic_system_deliver(answering, id, event, NULL);
}

/* The state, the running effects and every file of the journal directory (names and
 * bytes), as one string. Caller frees. */
static __attribute__((unused)) char *picture(corelogic_system s, const char *dir) {
    char *state = NULL, *effects = NULL;
    corelogic_system_state(s, &state);
    corelogic_system_effects(s, &effects);
    size_t cap = 1 << 16, len = 0;
    char *out = malloc(cap);
    len += (size_t)snprintf(out, cap, "state=%s\neffects=%s\n", state ? state : "?", effects ? effects : "?");
    corelogic_free(state);
    corelogic_free(effects);
    DIR *d = opendir(dir);
    char *names[64];
    int count = 0;
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL && count < 64)
        if (e->d_name[0] != '.') names[count++] = strdup(e->d_name);
    if (d) closedir(d);
    for (int i = 0; i < count; i++) /* sort: readdir order is not stable */
        for (int j = i + 1; j < count; j++)
            if (strcmp(names[j], names[i]) < 0) { char *t = names[i]; names[i] = names[j]; names[j] = t; }
    for (int i = 0; i < count; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        size_t size = 0;
        char *data = read_file(path, &size);
        size_t need = len + strlen(names[i]) + size + 16;
        if (need > cap) { cap = need * 2; out = realloc(out, cap); }
        len += (size_t)snprintf(out + len, cap - len, "%s:", names[i]);
        if (data) { memcpy(out + len, data, size); len += size; }
        out[len++] = '\n';
        out[len] = 0;
        free(data);
        free(names[i]);
    }
    return out;
}

#endif
