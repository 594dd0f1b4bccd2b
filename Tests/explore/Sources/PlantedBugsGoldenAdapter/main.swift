import CoreLogicTesting
import Cookbook
import PlantedBugs

// The golden driver's Swift adapter for the planted library. The Swift adapter runs the
// features in-process, and is started like every adapter with the library's path last:
// given the cookbook's library, it serves the cookbook's features (where `search` is
// right), otherwise the planted ones.
let library = CommandLine.arguments.count > 1 ? CommandLine.arguments[CommandLine.arguments.count - 1] : ""
GoldenAdapter.run(catalog: library.hasSuffix("libcookbook.so") ? Cookbook.catalog : PlantedBugs.catalog)
