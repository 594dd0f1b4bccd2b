/// The features this library ships, by name. Adding a feature is one file in
/// `Features/`, its golden files, and one line here.
public enum FeatureCatalog {
    public static let all: [FeatureDescriptor] = [
        FeatureDescriptor(Counter.self),
        FeatureDescriptor(Search.self),
        FeatureDescriptor(Downloads.self),
        FeatureDescriptor(Playcatch.self),
        FeatureDescriptor(Pharmacies.self),
        FeatureDescriptor(DeltaList.self),
        FeatureDescriptor(Profile.self),
        FeatureDescriptor(Share.self),
        FeatureDescriptor(Typeahead.self),
        FeatureDescriptor(Signup.self),
    ]

    /// The feature named `name`.
    /// - Throws: `.notFound` with the list of known names.
    public static func named(_ name: String) throws -> FeatureDescriptor {
        if let feature = all.first(where: { $0.name == name }) { return feature }
        throw CoreLogicError(.notFound, "no feature named '\(name)'; features: \(all.map(\.name).joined(separator: ", "))")
    }
}
