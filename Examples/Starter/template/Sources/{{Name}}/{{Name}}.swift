import CoreLogic

/// A list of items, saved on request: the starter's feature. Replace it with yours
/// (corelogic's docs/cookbook.md says how a feature is written).
///
/// Rules:
/// - `add` appends an item; blank text is ignored.
/// - `save` asks for the `save` effect with the items; while a save runs, `save` is ignored.
/// - `saved` ends the save; `saveFailed` ends it and keeps the message until the next save.
public enum {{Name}}: Feature {
    public struct State: Codable, Equatable, Sendable {
        public var items: [String] = []
        public var saving = false
        public var error: String?

        public init(items: [String] = [], saving: Bool = false, error: String? = nil) {
            self.items = items
            self.saving = saving
            self.error = error
        }
    }

    public enum Event: Codable, Equatable, Sendable {
        case add(text: String)
        case save
        /// The answer of the `save` effect.
        case saved
        /// The answer of the `save` effect when it failed.
        case saveFailed(message: String)

        public enum CodingKeys: String, CodingKey, CaseIterable {
            case add, save, saved, saveFailed
        }
    }

    /// The `save` effect's request: store these items, then deliver `saved` or `saveFailed`.
    public struct SaveRequest: Codable, Equatable, Sendable {
        public var items: [String]

        public init(items: [String]) { self.items = items }
    }

    public static let name = "{{name}}"
    public static var initialState: State { State() }

    public static func reduce(_ state: inout State, _ event: Event) {
        switch event {
        case .add(let text):
            guard !text.allSatisfy(\.isWhitespace) else { return }
            state.items.append(text)
        case .save:
            guard !state.saving else { return }
            state.saving = true
            state.error = nil
        case .saved:
            state.saving = false
        case .saveFailed(let message):
            state.saving = false
            state.error = message
        }
    }

    public static var feedbacks: [Feedback<State>] {
        [.react("save") { $0.saving ? SaveRequest(items: $0.items) : nil }]
    }

    public static var queries: [StateQuery<State>] {
        [StateQuery("count") { $0.items.count }]
    }
}
