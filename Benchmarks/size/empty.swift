// An empty Swift library: built with an app's release flags (make bench-size), it is what
// the Swift runtime linked in statically costs before the library has any code of its own.
