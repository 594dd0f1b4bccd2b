import CoreLogic

/// The cookbook's features, as its library serves them (`corelogic_features`) and as
/// its tests and golden files find them by name. A feature added here also needs its
/// golden files and its committed schema: docs/cookbook.md, "Checklist for a new feature".
public let catalog = AppFeatures([
    .feature(Counter.self), .feature(Search.self), .feature(Downloads.self), .feature(Playcatch.self),
    .feature(Pharmacies.self), .feature(DeltaList.self), .feature(Profile.self), .feature(Share.self),
    .feature(Typeahead.self), .feature(Signup.self),
])
