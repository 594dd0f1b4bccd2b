/* File helpers shared by the C tests (persist_util.h, stress_test.c, trace_test.c) and the
 * C benchmarks (Benchmarks/c/bench_util.h). */
#ifndef CORELOGIC_TEST_FS_UTIL_H
#define CORELOGIC_TEST_FS_UTIL_H
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Removes every file in `dir` and the directory itself (one level). */
static __attribute__((unused)) void remove_tree(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    char path[4096];
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    closedir(d);
    rmdir(dir);
}

/* Reads a whole file; *size (when not NULL) receives its length. Caller frees. NULL if
 * unreadable. */
static __attribute__((unused)) char *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *data = malloc((size_t)n + 1);
    if (fread(data, 1, (size_t)n, f) != (size_t)n) { fclose(f); free(data); return NULL; }
    fclose(f);
    data[n] = 0;
    if (size) *size = (size_t)n;
    return data;
}

#endif
