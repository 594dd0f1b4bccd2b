/* The C golden adapter: the driver's line protocol (docs/golden-files.md, "The driver
 * and the adapters") over the C ABI, with the library loaded by path. It parses no JSON:
 * the library's JSON goes to the driver as it is, which compares it and keeps the
 * patch-mode mirror (`mirror` answers `none`).
 * Usage: golden_adapter [LIBRARY]   (default: $CORELOGIC_LIBRARY) */
#ifndef _GNU_SOURCE /* the Makefile's dlopen hosts get it on the command line */
#define _GNU_SOURCE
#endif
#include <corelogic.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct {
    const char *(*status_name)(int);
    const char *(*last_error)(void);
    void (*free)(char *);
    int (*features)(char **);
    int (*system_new)(const char *, const char *, corelogic_system *, char **);
    int (*system_free)(corelogic_system);
    int (*send)(corelogic_system, const char *, char **);
    int (*deliver)(corelogic_system, uint64_t, const char *, char **);
    int (*complete)(corelogic_system, uint64_t, char **);
    int (*state)(corelogic_system, char **);
    int (*query)(corelogic_system, const char *, char **);
    int (*set_output)(corelogic_system, int, char **);
    int (*watch)(corelogic_system, const char *, char **);
    int (*check)(corelogic_system, char **);
} abi;

static void *symbol(void *library, const char *name) {
    void *found = dlsym(library, name);
    if (found == NULL) { fprintf(stderr, "golden_adapter: %s\n", dlerror()); exit(2); }
    return found;
}

/* One answer line for a call's status and output (freed here). */
static void reply(int status, char *json) {
    if (status == CORELOGIC_OK) printf("ok %s\n", json ? json : "");
    else if (status == CORELOGIC_STALE) printf("stale\n");
    else {
        char *message = strdup(abi.last_error());
        for (char *c = message; *c; c++) if (*c == '\n' || *c == '\r') *c = ' ';
        printf("error %s - %s\n", abi.status_name(status), message);
        free(message);
    }
    fflush(stdout);
    if (json) abi.free(json);
}

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : getenv("CORELOGIC_LIBRARY");
    void *library = path ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
    if (library == NULL) { fprintf(stderr, "golden_adapter: cannot load %s: %s\n", path ? path : "(no library given)", path ? dlerror() : ""); return 2; }
#define LOAD(field, name) *(void **)&abi.field = symbol(library, name)
    LOAD(status_name, "corelogic_status_name"); LOAD(last_error, "corelogic_last_error");
    LOAD(free, "corelogic_free"); LOAD(features, "corelogic_features");
    LOAD(system_new, "corelogic_system_new"); LOAD(system_free, "corelogic_system_free");
    LOAD(send, "corelogic_system_send"); LOAD(deliver, "corelogic_system_deliver");
    LOAD(complete, "corelogic_system_complete"); LOAD(state, "corelogic_system_state");
    LOAD(query, "corelogic_system_query"); LOAD(set_output, "corelogic_system_set_output");
    LOAD(watch, "corelogic_system_watch_queries"); LOAD(check, "corelogic_system_check");

    corelogic_system system = 0;
    char *line = NULL, *payload = NULL;
    size_t capacity = 0;
    while (getline(&line, &capacity, stdin) > 0) {
        line[strcspn(line, "\n")] = '\0';
        char *argument = strchr(line, ' ');
        if (argument) *argument++ = '\0';
        /* create, send and deliver end their line with the length of the payload that follows. */
        if (!strcmp(line, "create") || !strcmp(line, "send") || !strcmp(line, "deliver")) {
            char *length = strrchr(argument, ' ');
            size_t size = strtoull(length ? length + 1 : argument, NULL, 10);
            if (length) *length = '\0';
            payload = realloc(payload, size + 2);
            if (fread(payload, 1, size + 1, stdin) != size + 1) break;
            payload[size] = '\0';
        }
        char *out = NULL;
        int status = CORELOGIC_OK;
        if (!strcmp(line, "features")) status = abi.features(&out);
        else if (!strcmp(line, "create")) status = abi.system_new(argument, strcmp(payload, "null") ? payload : NULL, &system, &out);
        else if (!strcmp(line, "output"))
            status = abi.set_output(system, strcmp(argument, "patch") ? CORELOGIC_OUTPUT_FULL : CORELOGIC_OUTPUT_PATCH, &out);
        else if (!strcmp(line, "watch")) status = abi.watch(system, argument, &out);
        else if (!strcmp(line, "send")) status = abi.send(system, payload, &out);
        else if (!strcmp(line, "deliver")) status = abi.deliver(system, strtoull(argument, NULL, 10), payload, &out);
        else if (!strcmp(line, "complete")) status = abi.complete(system, strtoull(argument, NULL, 10), &out);
        else if (!strcmp(line, "query")) status = abi.query(system, argument, &out);
        else if (!strcmp(line, "state")) status = abi.state(system, &out);
        else if (!strcmp(line, "check")) status = abi.check(system, &out);
        else if (!strcmp(line, "free")) { status = abi.system_free(system); system = 0; }
        else if (!strcmp(line, "mirror")) { printf("none\n"); fflush(stdout); continue; }
        else { printf("error CORELOGIC_ERR_ARG - unknown command %s\n", line); fflush(stdout); continue; }
        reply(status, out);
    }
    free(line);
    free(payload);
    if (system) abi.system_free(system);
    /* No dlclose: the library stays mapped until exit, so valgrind can name its frames
     * (the suppressions for the Swift runtime's caches match by name). */
    return 0;
}
