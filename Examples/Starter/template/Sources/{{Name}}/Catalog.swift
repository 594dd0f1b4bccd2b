import CoreLogic

/// The features this package serves, by name: the library's `corelogic_features`, and
/// what the tests' golden files find. Add each new feature here.
public let catalog = AppFeatures([
    .feature({{Name}}.self),
])
