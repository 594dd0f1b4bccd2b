/* Traces through the C ABI (include/corelogic.h, "Traces"; format in docs/inspector.md):
 * what corelogic_system_trace writes and its error paths. Runs under valgrind.
 * Ends with "trace: N passed, N failed"; exit status 1 on any failure. */
#define _GNU_SOURCE
#include <corelogic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "fs_util.h"

static int count_lines(const char *text) {
    int n = 0;
    for (const char *p = text; p && *p; p++) n += *p == '\n';
    return n;
}

/* The n-th line (from 0) of `text`, copied into `out`. */
static const char *line_of(const char *text, int n, char *out, size_t size) {
    const char *p = text;
    while (p && n-- > 0) { p = strchr(p, '\n'); if (p) p++; }
    if (!p || !*p) { out[0] = 0; return out; }
    size_t len = strcspn(p, "\n");
    if (len >= size) len = size - 1;
    memcpy(out, p, len);
    out[len] = 0;
    return out;
}

static corelogic_system traced_system;
static int handler_calls;

/* Starts the trace from inside a handler: it begins with the next step. */
static void start_trace_in_handler(void *context, const char *state) {
    (void)state;
    if (handler_calls++ == 0) CHECK(corelogic_system_trace(traced_system, (const char *)context) == CORELOGIC_OK);
}

int main(void) {
    char dir[] = "/tmp/corelogic-trace-XXXXXX";
    if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
    char path[256], other[256], missing[256], line[4096];
    snprintf(path, sizeof path, "%s/search.jsonl", dir);
    snprintf(other, sizeof other, "%s/other.jsonl", dir);
    snprintf(missing, sizeof missing, "%s/no/such/dir.jsonl", dir);

    corelogic_system s = 0;
    CHECK(corelogic_system_new("search", NULL, &s, NULL) == CORELOGIC_OK);

    /* Errors leave everything as it was. */
    CHECK(corelogic_system_trace(0, path) == CORELOGIC_ERR_HANDLE);
    CHECK(corelogic_system_trace(s, "") == CORELOGIC_ERR_ARG);
    CHECK(corelogic_system_trace(s, missing) == CORELOGIC_ERR_IO);
    CHECK(strstr(corelogic_last_error(), "no/such/dir.jsonl") != NULL);
    CHECK(corelogic_system_trace(s, NULL) == CORELOGIC_OK);   /* stopping when off: fine */

    CHECK(corelogic_system_trace(s, path) == CORELOGIC_OK);
    char *text = read_file(path, NULL);
    CHECK(count_lines(text) == 1);
    CHECK(strncmp(line_of(text, 0, line, sizeof line), "{\"corelogicTrace\":1,\"feature\":\"search\",", 39) == 0);
    free(text);

    char *batch = NULL;
    CHECK(corelogic_system_send(s, "{\"queryChanged\":{\"text\":\"sw\"}}", &batch) == CORELOGIC_OK);
    corelogic_free(batch);
    CHECK(corelogic_system_send(s, "{\"queryChanged\":{\"text\":\"swift\"}}", NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_deliver(s, 1, "\"reachedBottom\"", NULL) == CORELOGIC_STALE);
    CHECK(corelogic_system_send(s, "{\"nope\":1}", NULL) == CORELOGIC_ERR_SCHEMA);
    /* A failed start of another trace keeps this one going. */
    CHECK(corelogic_system_trace(s, missing) == CORELOGIC_ERR_IO);
    CHECK(corelogic_system_complete(s, 2, NULL) == CORELOGIC_OK);

    text = read_file(path, NULL);
    CHECK(count_lines(text) == 6);
    CHECK(strstr(line_of(text, 1, line, sizeof line), "\"seq\":1,\"input\":\"send\"") != NULL);
    CHECK(strstr(line_of(text, 3, line, sizeof line), "\"seq\":3,\"input\":\"deliver\",\"effect\":1,\"event\":{\"reachedBottom\":{}},\"status\":\"stale\"}") != NULL);
    CHECK(strstr(line_of(text, 4, line, sizeof line), "\"raw\":\"{\\\"nope\\\":1}\",\"status\":\"error:schema\"") != NULL);
    CHECK(strstr(line_of(text, 5, line, sizeof line), "\"seq\":5,\"input\":\"complete\",\"effect\":2,\"status\":\"ok\"") != NULL);
    free(text);

    /* Stopping: nothing more is written. */
    CHECK(corelogic_system_trace(s, NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_send(s, "\"reachedBottom\"", NULL) == CORELOGIC_OK);
    text = read_file(path, NULL);
    CHECK(count_lines(text) == 6);
    free(text);
    CHECK(corelogic_system_free(s) == CORELOGIC_OK);
    CHECK(corelogic_system_trace(s, path) == CORELOGIC_ERR_HANDLE);

    /* Started from inside a handler: the first line has the state after that step,
     * and the queued step is the trace's first. */
    CHECK(corelogic_system_new("counter", NULL, &traced_system, NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_on_state(traced_system, start_trace_in_handler, other) == CORELOGIC_OK);
    CHECK(corelogic_system_send(traced_system, "\"increment\"", NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_send(traced_system, "\"increment\"", NULL) == CORELOGIC_OK);
    /* Freeing the system closes its trace. */
    CHECK(corelogic_system_free(traced_system) == CORELOGIC_OK);
    text = read_file(other, NULL);
    CHECK(count_lines(text) == 2);
    CHECK(strstr(line_of(text, 0, line, sizeof line), "\"state\":{\"count\":1}") != NULL);
    CHECK(strstr(line_of(text, 1, line, sizeof line), "\"patch\":[{\"op\":\"replace\",\"path\":\"/count\",\"value\":2}]") != NULL);
    free(text);

    /* The path is used as the bytes it is: a name that is not UTF-8 is not replaced by
     * a look-alike. */
    char odd[256], lookalike[256];
    snprintf(odd, sizeof odd, "%s/t\xff.jsonl", dir);
    snprintf(lookalike, sizeof lookalike, "%s/t\xef\xbf\xbd.jsonl", dir);
    CHECK(corelogic_system_new("counter", NULL, &s, NULL) == CORELOGIC_OK);
    CHECK(corelogic_system_trace(s, odd) == CORELOGIC_OK);
    CHECK(corelogic_system_send(s, "\"increment\"", NULL) == CORELOGIC_OK);
    text = read_file(odd, NULL);
    CHECK(count_lines(text) == 2);
    free(text);
    CHECK(access(lookalike, F_OK) != 0);

    /* A first line that cannot be written: the message names the file and the reason. */
    if (access("/dev/full", W_OK) == 0) {
        CHECK(corelogic_system_trace(s, "/dev/full") == CORELOGIC_ERR_IO);
        CHECK(strstr(corelogic_last_error(), "/dev/full") != NULL);
        CHECK(strstr(corelogic_last_error(), "No space left on device") != NULL);
        /* The trace that was going on goes on. */
        CHECK(corelogic_system_send(s, "\"increment\"", NULL) == CORELOGIC_OK);
        text = read_file(odd, NULL);
        CHECK(count_lines(text) == 3);
        free(text);
    }
    CHECK(corelogic_system_free(s) == CORELOGIC_OK);

    unlink(odd);
    unlink(path);
    unlink(other);
    rmdir(dir);
    printf("trace: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
