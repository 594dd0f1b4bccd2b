import CoreLogic

/// The saved-pharmacies screen as one state machine (diagram in docs/cookbook.md).
///
/// The phase says what the screen is doing; effects and navigation are derived from it:
///
/// - `load` runs while `loading`; `add` while `adding`; `delete` while `deleting`.
/// - The `route` query is what the host's router shows: the list, the map, an error
///   alert, directions, or "dismiss the screen". There is no other navigation channel.
/// - The map search is the ``Typeahead`` feature embedded in the `searching` phase: its
///   feedbacks are `typeahead.debounce` and `typeahead.search`, its events arrive
///   wrapped in `typeahead(event:)`, and leaving `searching` cancels its effects.
///
/// Rules:
/// - Pharmacies are told apart by `id`. Adding one whose id is already in the list is
///   ignored (the map stays open); `delete`, `showDirections` and `select` act on the
///   saved pharmacy with that id and are ignored for an id not in the list.
/// - A failed add or delete returns to `loaded` with the error and the list unchanged;
///   the error is shown once: `errorDismissed`, or any move out of `loaded`, clears it.
/// - `dismiss` is accepted in every phase except `adding`, `deleting` (a write in
///   flight finishes first) and `dismissing`; `select` only in `loaded` and
///   `showingDirections`.
/// - Every other event that does not fit the current phase is ignored.
public enum Pharmacies: Feature {
    public struct Pharmacy: Codable, Equatable, Hashable, Sendable {
        public var id: String
        public var name: String
        public var address: String

        public init(id: String, name: String, address: String) {
            self.id = id
            self.name = name
            self.address = address
        }
    }

    /// What the screen is doing.
    public indirect enum Phase: Codable, Equatable, Sendable {
        /// The saved list is loading (the `load` effect runs).
        case loading
        /// Loading failed; `retry` loads again.
        case loadingFailed(message: String)
        /// The list is shown; `error` is the last failed write, shown once.
        case loaded(error: String?)
        /// The map is shown with its search field.
        case searching(search: Typeahead.State)
        /// `pharmacy` is being saved (the `add` effect runs).
        case adding(pharmacy: Pharmacy)
        /// `pharmacy` is being removed (the `delete` effect runs).
        case deleting(pharmacy: Pharmacy)
        /// Directions to `pharmacy` are shown.
        case showingDirections(pharmacy: Pharmacy)
        /// The screen is closing, with the pharmacy the user chose (or none), and the
        /// phase it was closed from.
        case dismissing(selected: Pharmacy?, from: Phase)

        public enum CodingKeys: String, CodingKey, CaseIterable {
            case loading, loadingFailed, loaded, searching, adding, deleting, showingDirections, dismissing
        }
    }

    public struct State: Codable, Equatable, Sendable {
        /// The saved pharmacies, in the order the server gave and then added.
        public var pharmacies: [Pharmacy]
        public var phase: Phase

        public init(pharmacies: [Pharmacy] = [], phase: Phase = .loading) {
            self.pharmacies = pharmacies
            self.phase = phase
        }

        /// The saved pharmacy with `pharmacy`'s id (pharmacies are told apart by id).
        public func saved(_ pharmacy: Pharmacy) -> Pharmacy? {
            pharmacies.first { JSONIdentity.same($0.id, pharmacy.id) }
        }

        /// The map search's state while the map is shown, nil otherwise. Setting it
        /// while the map is shown replaces it; setting it in another phase does nothing.
        public var search: Typeahead.State? {
            get {
                if case .searching(let search) = phase { return search }
                return nil
            }
            set {
                guard case .searching = phase, let newValue else { return }
                phase = .searching(search: newValue)
            }
        }
    }

    public enum Event: Codable, Equatable, Sendable {
        /// The saved list arrived (from `load`).
        case listLoaded(pharmacies: [Pharmacy])
        /// Loading the list failed (from `load`).
        case loadFailed(message: String)
        /// Load again after a failure.
        case retry
        /// Open the map to find a pharmacy to add.
        case showMap
        /// Close the map without adding.
        case closeMap
        /// An event of the map's search field.
        case typeahead(event: Typeahead.Event)
        /// Save `pharmacy` (picked on the map).
        case add(pharmacy: Pharmacy)
        /// The pharmacy was saved (from `add`).
        case added(pharmacy: Pharmacy)
        /// Saving failed (from `add`).
        case addFailed(message: String)
        /// Remove `pharmacy` from the saved list.
        case delete(pharmacy: Pharmacy)
        /// The pharmacy was removed (from `delete`).
        case deleted(pharmacy: Pharmacy)
        /// Removing failed (from `delete`).
        case deleteFailed(message: String)
        /// The user closed the error alert.
        case errorDismissed
        /// Show directions to `pharmacy`.
        case showDirections(pharmacy: Pharmacy)
        /// Close the directions.
        case closeDirections
        /// Close the screen, choosing `pharmacy`.
        case select(pharmacy: Pharmacy)
        /// Close the screen without choosing.
        case dismiss

        public enum CodingKeys: String, CodingKey, CaseIterable {
            case listLoaded, loadFailed, retry, showMap, closeMap, typeahead, add, added, addFailed
            case delete, deleted, deleteFailed, errorDismissed, showDirections, closeDirections
            case select, dismiss
        }
    }

    /// Where the host's router must be; derived from the phase (the `route` query).
    public enum Route: Codable, Equatable, Sendable {
        /// The list screen (also while loading, after a failed load with its retry button,
        /// and while adding or deleting).
        case list
        /// The map with its search field.
        case map
        /// An error alert over the list.
        case error(message: String)
        /// Directions to a pharmacy.
        case directions(pharmacy: Pharmacy)
        /// Close the screen and hand `selected` (or nothing) to whoever opened it.
        case dismissed(selected: Pharmacy?)

        public enum CodingKeys: String, CodingKey, CaseIterable {
            case list, map, error, directions, dismissed
        }
    }

    /// The `load` effect's request: fetch the saved list, deliver `listLoaded` or `loadFailed`.
    public struct LoadRequest: Codable, Equatable, Sendable {}

    /// The `add` and `delete` effects' request: save or remove this pharmacy, then
    /// deliver `added`/`addFailed` or `deleted`/`deleteFailed`.
    public struct PharmacyRequest: Codable, Equatable, Sendable {
        public var pharmacy: Pharmacy
    }

    public static let name = "pharmacies"
    public static var initialState: State { State() }

    public static func reduce(_ state: inout State, _ event: Event) {
        switch (state.phase, event) {
        case (.loading, .listLoaded(let pharmacies)):
            state.pharmacies = pharmacies
            state.phase = .loaded(error: nil)
        case (.loading, .loadFailed(let message)):
            state.phase = .loadingFailed(message: message)
        case (.loadingFailed, .retry):
            state.phase = .loading

        case (.loaded, .showMap):
            state.phase = .searching(search: Typeahead.initialState)
        case (.searching, .closeMap):
            state.phase = .loaded(error: nil)
        case (.searching, .typeahead(let event)):
            Typeahead.reduce(ifPresent: &state.search, event)
        case (.searching, .add(let pharmacy)):
            guard state.saved(pharmacy) == nil else { return }
            state.phase = .adding(pharmacy: pharmacy)
        case (.adding(let pharmacy), .added):
            state.pharmacies.append(pharmacy)
            state.phase = .loaded(error: nil)
        case (.adding, .addFailed(let message)):
            state.phase = .loaded(error: message)

        case (.loaded, .delete(let pharmacy)):
            guard let saved = state.saved(pharmacy) else { return }
            state.phase = .deleting(pharmacy: saved)
        case (.deleting(let pharmacy), .deleted):
            state.pharmacies.removeAll { JSONIdentity.same($0.id, pharmacy.id) }
            state.phase = .loaded(error: nil)
        case (.deleting, .deleteFailed(let message)):
            state.phase = .loaded(error: message)

        case (.loaded(.some), .errorDismissed):
            state.phase = .loaded(error: nil)

        case (.loaded, .showDirections(let pharmacy)):
            guard let saved = state.saved(pharmacy) else { return }
            state.phase = .showingDirections(pharmacy: saved)
        case (.showingDirections, .closeDirections):
            state.phase = .loaded(error: nil)

        case (.loaded, .select(let pharmacy)), (.showingDirections, .select(let pharmacy)):
            guard let saved = state.saved(pharmacy) else { return }
            state.phase = .dismissing(selected: saved, from: state.phase)
        case (.loading, .dismiss), (.loadingFailed, .dismiss), (.loaded, .dismiss),
             (.searching, .dismiss), (.showingDirections, .dismiss):
            state.phase = .dismissing(selected: nil, from: state.phase)

        default:
            return
        }
    }

    public static var feedbacks: [Feedback<State>] {
        [
            .react("load") { state in state.phase == .loading ? LoadRequest() : nil },
            .react("add") { state -> PharmacyRequest? in
                if case .adding(let pharmacy) = state.phase { return PharmacyRequest(pharmacy: pharmacy) }
                return nil
            },
            .react("delete") { state -> PharmacyRequest? in
                if case .deleting(let pharmacy) = state.phase { return PharmacyRequest(pharmacy: pharmacy) }
                return nil
            },
        ] + Typeahead.feedbacks(prefix: "typeahead", { (state: State) in state.search })
    }

    /// Directions, deletes and a selection are always of a saved pharmacy; the embedded
    /// search keeps its own invariants.
    public static var invariants: [Invariant<State>] {
        [Invariant("phaseShowsASavedPharmacy") { state in
            let shown: Pharmacy?
            switch state.phase {
            case .showingDirections(let pharmacy), .deleting(let pharmacy): shown = pharmacy
            case .dismissing(let selected, _): shown = selected
            default: shown = nil
            }
            guard let shown, state.saved(shown) == nil else { return nil }
            return "the phase shows pharmacy \(shown.id), which is not saved"
        }] + Typeahead.invariants(prefix: "typeahead", { (state: State) in state.search })
    }

    public static var queries: [StateQuery<State>] {
        [
            StateQuery("route") { route(of: $0) },
            StateQuery("pharmacies") { $0.pharmacies },
            StateQuery("isBusy") { state -> Bool in
                switch state.phase {
                case .loading, .adding, .deleting: return true
                default: return false
                }
            },
        ] + Typeahead.queries(prefix: "typeahead", { (state: State) in state.search })
    }

    /// The router's destination for a state.
    public static func route(of state: State) -> Route {
        switch state.phase {
        case .loading, .loadingFailed, .adding, .deleting, .loaded(error: nil):
            return .list
        case .loaded(error: .some(let message)):
            return .error(message: message)
        case .searching:
            return .map
        case .showingDirections(let pharmacy):
            return .directions(pharmacy: pharmacy)
        case .dismissing(let selected, _):
            return .dismissed(selected: selected)
        }
    }
}
