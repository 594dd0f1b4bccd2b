/* make bench, hosts section: the C figure the JVM and Node.js lines are compared with.
 * One counter round trip = corelogic_system_send("increment") with its batch, then
 * corelogic_free: the least any host does. Prints the median of ROUNDS rounds as
 * "c full: <ns> ns/call". */
#define _POSIX_C_SOURCE 200809L
#include <corelogic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define BENCH_NAME "bench_counter"
#include "../c/bench_util.h"

#define ROUNDS 7
#define CALLS 100000

/* One round, in nanoseconds per call: bench_util.h's counter round trip, inverted. */
static double round_ns(corelogic_system counter, int calls) {
    return 1e9 / counter_round_trips_per_second(counter, calls);
}

int main(void) {
    corelogic_system counter;
    if (corelogic_system_new("counter", NULL, &counter, NULL) != CORELOGIC_OK) return 1;
    round_ns(counter, CALLS / 10); /* warm-up */
    double rounds[ROUNDS];
    for (int r = 0; r < ROUNDS; r++) rounds[r] = round_ns(counter, CALLS);
    qsort(rounds, ROUNDS, sizeof rounds[0], compare);
    printf("c full: %.1f ns/call\n", rounds[ROUNDS / 2]);
    corelogic_system_free(counter);
    return 0;
}
