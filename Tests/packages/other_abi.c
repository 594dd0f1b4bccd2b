/* A library that says it has another C ABI than include/corelogic.h's: every binding
 * must refuse it when it loads it, naming both numbers (make test-packages). */
#include <corelogic.h>

int corelogic_abi_version(void) { return CORELOGIC_ABI_VERSION + 41; }

const char *corelogic_version(void) { return "99.0.0"; }
