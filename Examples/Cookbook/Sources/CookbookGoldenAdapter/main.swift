import CoreLogicTesting
import Cookbook

// The golden driver's Swift adapter for the cookbook's features (docs/golden-files.md).
GoldenAdapter.run(catalog: catalog)
