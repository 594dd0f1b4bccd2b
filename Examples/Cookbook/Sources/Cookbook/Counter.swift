import CoreLogic

/// The smallest feature: a number that goes up and down. No effects.
public enum Counter: Feature {
    public struct State: Codable, Equatable, Sendable {
        /// 64 bits on every platform, the WebAssembly build's too (where `Int` has 32).
        public var count: Int64
        public init(count: Int64 = 0) { self.count = count }
    }

    public enum Event: Codable, Equatable, Sendable {
        case increment
        case decrement

        public enum CodingKeys: String, CodingKey, CaseIterable {
            case increment, decrement
        }
    }

    public static let name = "counter"
    public static var initialState: State { State() }

    public static func reduce(_ state: inout State, _ event: Event) {
        switch event {
        case .increment: state.count &+= 1
        case .decrement: state.count &-= 1
        }
    }

    public static var queries: [StateQuery<State>] {
        [StateQuery("isZero") { $0.count == 0 }]
    }
}
