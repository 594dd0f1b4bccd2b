/* make bench-instructions, start-up: `startup_driver LIBRARY FEATURE` dlopens an app's
 * library, creates one system of FEATURE, sends it one event with its batch, frees both
 * and exits; `startup_driver LIBRARY -` exits without opening anything. run.py counts both
 * under callgrind: the difference is the cost from dlopen to the first batch (the
 * loader's relocations, the Swift runtime's start, the catalog's first use), which is
 * what a host pays once per process. */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <stdint.h>

typedef uint64_t corelogic_system;
typedef int (*system_new_fn)(const char *, const char *, corelogic_system *, char **);
typedef int (*system_send_fn)(corelogic_system, const char *, char **);
typedef int (*system_free_fn)(corelogic_system);
typedef void (*free_fn)(void *);

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: startup_driver LIBRARY FEATURE|- EVENT\n");
        return 2;
    }
    if (strcmp(argv[2], "-") == 0) {
        puts("0 events");
        return 0;
    }
    void *library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        fprintf(stderr, "startup_driver: %s\n", dlerror());
        return 1;
    }
    system_new_fn system_new = (system_new_fn)(uintptr_t)dlsym(library, "corelogic_system_new");
    system_send_fn system_send = (system_send_fn)(uintptr_t)dlsym(library, "corelogic_system_send");
    system_free_fn system_free = (system_free_fn)(uintptr_t)dlsym(library, "corelogic_system_free");
    free_fn string_free = (free_fn)(uintptr_t)dlsym(library, "corelogic_free");
    if (!system_new || !system_send || !system_free || !string_free) {
        fprintf(stderr, "startup_driver: a corelogic function is missing\n");
        return 1;
    }
    corelogic_system system = 0;
    char *batch = NULL;
    if (system_new(argv[2], NULL, &system, NULL) != 0 || system_send(system, argv[3], &batch) != 0 || !batch) {
        fprintf(stderr, "startup_driver: %s: the first batch failed\n", argv[2]);
        return 1;
    }
    string_free(batch);
    system_free(system);
    puts("1 events");
    return 0;
}
