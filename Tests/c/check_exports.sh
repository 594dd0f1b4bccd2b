#!/bin/sh
# The corelogic_* symbols the library exports must be exactly the header's functions.
lib=$1 header=$2
exported=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[A-Z]$/ {print $3}' | grep '^corelogic_' | sort -u)
declared=$(grep -oE '\bcorelogic_[a-z0-9_]+\s*\(' "$header" | tr -d ' (' | sort -u)
if [ "$exported" != "$declared" ]; then
    echo "exports differ from the header:"
    echo "$exported" > /tmp/corelogic-exported.$$; echo "$declared" > /tmp/corelogic-declared.$$
    diff /tmp/corelogic-declared.$$ /tmp/corelogic-exported.$$
    rm -f /tmp/corelogic-exported.$$ /tmp/corelogic-declared.$$
    exit 1
fi
# Global symbols only: the Swift runtime's own stay local (lower-case nm types).
others=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[A-Z]$/ {print $3}' | grep -v '^corelogic_' | grep -v '^_init$\|^_fini$' || true)
if [ -n "$others" ]; then
    echo "the library exports global symbols besides the ABI:"; echo "$others"; exit 1
fi
echo "exports: $(echo "$exported" | wc -l) corelogic_* functions, exactly the header's; no other global symbols"
