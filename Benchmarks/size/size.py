"""make bench-size: how big an app's library is, and how much of it is the Swift runtime.

    python3 Benchmarks/size/size.py LIBRARY [FLOOR]

LIBRARY is an app's library as built (the cookbook's libcookbook.so). FLOOR, if given, is
a library built from an empty Swift file with the same flags (Benchmarks/size/empty.swift):
what any Swift library with the runtime linked in statically costs before it has any code
of its own. Printed side by side:

- the file as built (with debug information), with `strip --strip-debug` (what
  `make install` ships: the symbol table stays, for valgrind's suppressions), stripped
  of everything (`strip --strip-all`), and that stripped file gzipped (-9);
- the allocated sections (what is loaded), grouped: code, read-only data, Swift
  metadata, unwind tables, writable data;
- the code and data of the library's symbols (`nm --size-sort -S`), summed by origin:
  the Swift runtime (its C++ and C parts), the standard library's own code, libdispatch
  and the C++ library it pulls in, the framework (CoreLogic, CoreFFI), the app's modules,
  and specializations of the standard library's generics compiled for the framework's
  and the app's types (their names are the standard library's, their code is ours).
"""

from __future__ import annotations

import gzip
import re
import subprocess
import sys
import tempfile
from pathlib import Path

MB = 1_000_000


def mb(n: float) -> str:
    return f"{n / MB:.2f} MB"


def stripped_size(lib: Path, how: str) -> tuple[int, int]:
    """The size of `lib` after `strip how`, and of that file gzipped at level 9."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / lib.name
        subprocess.run(["strip", how, str(lib), "-o", str(out)], check=True)
        data = out.read_bytes()
        return len(data), len(gzip.compress(data, compresslevel=9))


SECTION_GROUPS = [
    ("code (.text, .plt, .init)", re.compile(r"^\.(text|plt|init|fini)")),
    ("read-only data (.rodata)", re.compile(r"^\.rodata")),
    ("Swift metadata (swift5_*)", re.compile(r"^swift5_")),
    ("unwind tables (.eh_frame*, .gcc_except_table)", re.compile(r"^\.(eh_frame|gcc_except_table)")),
    ("writable data (.data*, .got, .init_array)", re.compile(r"^\.(data|got|init_array|fini_array|tbss|tdata)")),
    ("dynamic linking (.dynsym, .rela*, .hash)", re.compile(r"^\.(dynsym|dynstr|rela|gnu\.hash|hash|gnu\.version|dynamic)")),
]


def sections(lib: Path) -> dict[str, int]:
    """Allocated sections' file sizes (NOBITS ones, .bss, take no room in the file)."""
    out = subprocess.run(["readelf", "-S", "-W", str(lib)], capture_output=True, text=True, check=True).stdout
    groups = {name: 0 for name, _ in SECTION_GROUPS}
    groups["other allocated"] = 0
    for line in out.splitlines():
        m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+(\S+)\s+\S+\s+\S+\s+([0-9a-f]+)\s+\S+\s+(\S*)\s", line)
        if not m:
            continue
        name, kind, size, flags = m.group(1), m.group(2), int(m.group(3), 16), m.group(4)
        if "A" not in flags or kind == "NOBITS":
            continue
        for group, pattern in SECTION_GROUPS:
            if pattern.match(name):
                groups[group] += size
                break
        else:
            groups["other allocated"] += size
    return groups


ORIGINS = [
    "Swift runtime (C++/C: metadata, casts, allocation)",
    "Swift standard library (its own code)",
    "libdispatch, BlocksRuntime, C++ library",
    "framework: CoreLogic, CoreFFI",
    "specializations of stdlib generics (our types)",
    "the app's modules",
    "other",
]

# Modules by their mangled prefix ($s + length + name).
FRAMEWORK = ("$s9CoreLogic", "$s7CoreFFI")
STDLIB_MODULES = ("$ss", "$sS", "$s17_StringProcessing", "$s12_RegexParser", "$s13_Concurrency",
                  "$s15_Concurrency", "$s5Glibc", "$s6Darwin", "$s11SwiftShims", "$s14SwiftOnoneSupport")
SPECIALIZATION = re.compile(r"(Tg5|Tg\d|Tf\d|TB5|Tm5|Ts5)")


def origin(name: str) -> str:
    if name.startswith(("_ZN5swift", "_ZNK5swift", "swift_", "_swift_", "__swift", "_ZL", "_ZN12_GLOBAL__N_1",
                        "_ZN4llvm", "_ZNK4llvm", "_ZN6__swift", "$sSo", "__SwiftNative")):
        return ORIGINS[0]
    if name.startswith(("dispatch_", "_dispatch", "_Block", "_os_", "_ZNSt", "_ZSt", "_ZNKSt", "__cxa", "__gxx",
                        "_ZTV", "_ZTI", "_ZTS", "_Z")) and not name.startswith("_ZN5swift"):
        return ORIGINS[2]
    if name.startswith("$s"):
        if name.startswith(FRAMEWORK):
            return ORIGINS[3]
        if SPECIALIZATION.search(name):
            return ORIGINS[4]
        if name.startswith(STDLIB_MODULES) or re.match(r"\$s\d", name) is None:
            return ORIGINS[1]
        # Any other module named in full ($s8Cookbook...) is the app's.
        return ORIGINS[5]
    if name.startswith("corelogic_"):
        return ORIGINS[3]
    return ORIGINS[6]


def by_origin(lib: Path) -> tuple[dict[str, int], int]:
    """Symbol sizes summed by origin; the total covers the symbols with a size."""
    out = subprocess.run(["nm", "--size-sort", "-S", str(lib)], capture_output=True, text=True).stdout
    sums = {name: 0 for name in ORIGINS}
    total = 0
    for line in out.splitlines():
        parts = line.split(maxsplit=3)
        if len(parts) != 4 or parts[2] in "bBU":
            continue
        size = int(parts[1], 16)
        sums[origin(parts[3])] += size
        total += size
    return sums, total


def main() -> int:
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.split("\n\n")[1])
    libs = [Path(arg) for arg in sys.argv[1:]]
    for lib in libs:
        if not lib.exists():
            sys.exit(f"bench-size: no {lib}")
    headers = [lib.name for lib in libs]
    if len(libs) == 2:
        headers[1] = "runtime floor"
    width = 52

    def row(label: str, values: list[str]) -> None:
        print(f"{label:<{width}} " + " ".join(f"{v:>14}" for v in values))

    row("library", headers)
    row("as built (with debug information)", [mb(lib.stat().st_size) for lib in libs])
    debug = [stripped_size(lib, "--strip-debug") for lib in libs]
    full = [stripped_size(lib, "--strip-all") for lib in libs]
    row("strip --strip-debug (shipped by make install)", [mb(s) for s, _ in debug])
    row("strip --strip-all (stripped)", [mb(s) for s, _ in full])
    row("stripped, gzip -9", [mb(z) for _, z in full])
    print()
    row("allocated sections (loaded)", headers)
    groups = [sections(lib) for lib in libs]
    for name in groups[0]:
        row("  " + name, [mb(g[name]) for g in groups])
    row("  total", [mb(sum(g.values())) for g in groups])
    print()
    row("symbols' code and data by origin (nm -S)", headers)
    origins = [by_origin(lib) for lib in libs]
    for name in ORIGINS:
        row("  " + name, [mb(o[0][name]) for o in origins])
    row("  total of sized symbols", [mb(o[1]) for o in origins])
    if len(libs) == 2:
        floor = full[1][0]
        print()
        print(f"The runtime floor is {mb(floor)} of the stripped {mb(full[0][0])} "
              f"({100 * floor / full[0][0]:.0f}%): an empty Swift library linked with the same flags.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
