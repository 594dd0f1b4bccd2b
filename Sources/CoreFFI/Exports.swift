// The C ABI lives here; see include/corelogic.h.
