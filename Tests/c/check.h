/* The C tests' one assertion, shared by every C test program.
 *
 * CHECK(cond) counts a pass, or prints the failing condition, where it is and the
 * library's last error, and counts a failure. Each program ends with
 * CHECK_SUMMARY("name"): it prints "name: N passed, N failed" (the line the suites end
 * with) and gives the exit status, 1 on any failure. Include it after the system headers
 * a file needs (and after its _GNU_SOURCE). */
#ifndef CORELOGIC_TEST_CHECK_H
#define CORELOGIC_TEST_CHECK_H
#include <corelogic.h>
#include <stdio.h>
#include <string.h>

static int passed, failed;

#define CHECK(cond) check((cond), #cond, __FILE__, __LINE__)
static void check(int ok, const char *what, const char *file, int line) {
    if (ok) { passed++; return; }
    failed++;
    fprintf(stderr, "FAIL %s:%d: %s (last error: %s)\n", file, line, what, corelogic_last_error());
}

#define CHECK_SUMMARY(name) (printf("%s: %d passed, %d failed\n", (name), passed, failed), failed ? 1 : 0)

/* Whether `haystack` (NULL: no) contains `needle`. */
static __attribute__((unused)) int contains(const char *haystack, const char *needle) {
    return haystack != NULL && strstr(haystack, needle) != NULL;
}

#endif
