/* File helpers shared by the C tests (persist_util.h, stress_test.c). */
#ifndef CORELOGIC_TEST_FS_UTIL_H
#define CORELOGIC_TEST_FS_UTIL_H
#include <dirent.h>
#include <stdio.h>
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

#endif
