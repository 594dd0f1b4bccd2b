import CoreLogic

/// Playing catch with the machine: the simplest automatic feedback.
///
/// The human throws with `humanThrows`. While the machine holds the ball, the
/// `throwTimer` feedback asks the host for a one-second timer (`{"seconds":1}`); when
/// it fires, the host delivers `machineThrows` through that effect and the ball is the
/// human's again, which cancels the (finished) timer.
///
/// Rules:
/// - `humanThrows` while the machine holds the ball is ignored (you cannot throw a ball
///   you do not have); so is `machineThrows` while the human holds it.
/// - The timer is derived from who holds the ball, never started by an event: each
///   catch by the machine passes the request through nil first, so every catch gets a
///   fresh timer.
public enum Playcatch: Feature {
    public enum Player: String, Codable, Equatable, CaseIterable, Sendable {
        case human, machine
    }

    public struct State: Codable, Equatable, Sendable {
        /// Who holds the ball.
        public var ball: Player
        /// How many throws were made, by both players.
        public var throwCount: Int

        public init(ball: Player = .human, throwCount: Int = 0) {
            self.ball = ball
            self.throwCount = throwCount
        }
    }

    public enum Event: Codable, Equatable, Sendable {
        /// The human throws the ball to the machine.
        case humanThrows
        /// The machine throws the ball back (from the `throwTimer` effect).
        case machineThrows

        public enum CodingKeys: String, CodingKey, CaseIterable {
            case humanThrows, machineThrows
        }
    }

    /// The `throwTimer` effect's request: wait this long, then deliver `machineThrows`.
    public struct TimerRequest: Codable, Equatable, Sendable {
        public var seconds: Int
    }

    public static let name = "playcatch"
    public static var initialState: State { State() }

    public static func reduce(_ state: inout State, _ event: Event) {
        switch event {
        case .humanThrows:
            guard state.ball == .human else { return }
            state.ball = .machine
            state.throwCount += 1
        case .machineThrows:
            guard state.ball == .machine else { return }
            state.ball = .human
            state.throwCount += 1
        }
    }

    public static var feedbacks: [Feedback<State>] {
        [.react("throwTimer") { $0.ball == .machine ? TimerRequest(seconds: 1) : nil }]
    }

    /// The ball changes hands with every throw and the human starts with it: the machine
    /// holds it exactly after an odd number of throws.
    public static var invariants: [Invariant<State>] {
        [Invariant("ballFollowsThrows") { state in
            (state.ball == .machine) == (state.throwCount % 2 != 0)
                ? nil : "the \(state.ball.rawValue) holds the ball after \(state.throwCount) throws"
        }]
    }

    public static var queries: [StateQuery<State>] {
        [
            StateQuery("holder") { $0.ball },
            StateQuery("canHumanThrow") { $0.ball == .human },
        ]
    }
}
