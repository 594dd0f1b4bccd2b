/* Two copies of libcorelogic in one process, each dlopen()ed by path with RTLD_LOCAL as
 * the JVM and Node.js glue load it (bindings/common/corelogic_dl.h): each keeps its own
 * systems, and neither resolves the other's symbols.
 * Usage: two_libraries_test LIBRARY COPY   (COPY: the same file under another path) */
#include <corelogic.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

typedef int (*new_fn)(const char *, const char *, corelogic_system *, char **);
typedef int (*send_fn)(corelogic_system, const char *, char **);
typedef int (*state_fn)(corelogic_system, char **);
typedef void (*free_fn)(char *);

static int failures;
#define CHECK(condition) do { if (!(condition)) { printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #condition); failures++; } } while (0)

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: two_libraries_test LIBRARY COPY\n"); return 2; }
    void *a = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL), *b = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL);
    if (!a || !b) { fprintf(stderr, "two_libraries_test: %s\n", dlerror()); return 2; }
    CHECK(a != b);
    CHECK(dlsym(RTLD_DEFAULT, "corelogic_system_new") == NULL); /* nothing leaked into the global scope */
    new_fn new_a = (new_fn)dlsym(a, "corelogic_system_new"), new_b = (new_fn)dlsym(b, "corelogic_system_new");
    send_fn send_a = (send_fn)dlsym(a, "corelogic_system_send");
    state_fn state_a = (state_fn)dlsym(a, "corelogic_system_state"), state_b = (state_fn)dlsym(b, "corelogic_system_state");
    free_fn free_a = (free_fn)dlsym(a, "corelogic_free"), free_b = (free_fn)dlsym(b, "corelogic_free");
    CHECK(new_a != new_b);
    corelogic_system in_a = 0, in_b = 0;
    CHECK(new_a("counter", NULL, &in_a, NULL) == CORELOGIC_OK);
    CHECK(new_b("counter", "{\"count\":41}", &in_b, NULL) == CORELOGIC_OK);
    CHECK(send_a(in_a, "\"increment\"", NULL) == CORELOGIC_OK);
    char *state = NULL;
    CHECK(state_a(in_a, &state) == CORELOGIC_OK && strcmp(state, "{\"count\":1}") == 0);
    free_a(state);
    CHECK(state_b(in_b, &state) == CORELOGIC_OK && strcmp(state, "{\"count\":41}") == 0);
    free_b(state);
    /* Each copy has its own handle table: a handle of one is not a system of the other. */
    corelogic_system second_a = 0;
    CHECK(new_a("counter", NULL, &second_a, NULL) == CORELOGIC_OK);
    if (second_a != in_b) CHECK(state_b(second_a, &state) == CORELOGIC_ERR_HANDLE);
    printf("two-libraries: %s\n", failures ? "FAILED" : "passed");
    return failures != 0;
}
