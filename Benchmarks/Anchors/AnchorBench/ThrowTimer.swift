import CoreLogic
import Cookbook

/// The query of the cookbook's `throwTimer` feedback (Playcatch.swift), for the loops that
/// run without corelogic's engine: while the machine holds the ball, the timer request.
/// The feature's closure lives inside its `Feedback`, so the rule is written again here;
/// the request is the feature's own.
struct ThrowTimer {
    let request: Playcatch.TimerRequest

    /// The request taken from the feature (its type has no public initializer): a system
    /// whose machine holds the ball starts it at creation.
    init() {
        let system = System<Playcatch>(state: Playcatch.State(ball: .machine, throwCount: 1))
        guard system.initialBatch.commands.count == 1,
              case .start(_, "throwTimer", let request) = system.initialBatch.commands[0],
              let timer = request as? Playcatch.TimerRequest else {
            fail("the playcatch feature no longer starts one throwTimer request when the machine holds the ball")
        }
        self.request = timer
    }

    @inline(__always)
    func callAsFunction(_ state: Playcatch.State) -> Playcatch.TimerRequest? {
        state.ball == .machine ? request : nil
    }
}
