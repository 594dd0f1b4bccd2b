@testable import CoreLogic

/// A feature whose feedback answers are set directly by events, so each test can put
/// the engine in exactly the situation a rule is about.
enum Probe: Feature {
    struct State: Codable, Equatable {
        var first: Int?
        var second: Int?
        var set: [Int] = []
        var log: [String] = []
    }

    enum Event: Codable, Equatable {
        case setFirst(value: Int?)
        case setSecond(value: Int?)
        case setSet(values: [Int])
        case note(text: String)

        enum CodingKeys: String, CodingKey, CaseIterable { case setFirst, setSecond, setSet, note }
    }

    static let name = "probe"
    static var initialState: State { State() }

    static func reduce(_ state: inout State, _ event: Event) {
        switch event {
        case .setFirst(let value): state.first = value
        case .setSecond(let value): state.second = value
        case .setSet(let values): state.set = values
        case .note(let text): state.log.append(text)
        }
    }

    static var feedbacks: [Feedback<State>] {
        [
            .react("first") { $0.first },
            .react("second") { $0.second },
            .reactSet("set") { $0.set },
        ]
    }

    static var queries: [StateQuery<State>] {
        [StateQuery("noteCount") { $0.log.count }]
    }
}

/// A command in a comparable form.
enum Command: Equatable, CustomStringConvertible {
    case cancel(UInt64)
    case start(UInt64, String, Int)

    init(_ command: EffectCommand) {
        switch command {
        case .cancel(let id): self = .cancel(id)
        case .start(let id, let feedback, let request): self = .start(id, feedback, (request as? Int) ?? -1)
        }
    }

    var description: String {
        switch self {
        case .cancel(let id): return "cancel \(id)"
        case .start(let id, let feedback, let request): return "start \(id) \(feedback)(\(request))"
        }
    }
}

extension System.Outcome {
    var commands: [Command] { batch?.commands.map(Command.init) ?? [] }
}
