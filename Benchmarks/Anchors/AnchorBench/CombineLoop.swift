// The same features through the OpenCombine feedback loop (FeedbackLoop.swift): the host
// sends into a subject, a sink keeps the last state, and the playcatch timer is a subject
// the host holds and fires by hand, as a host's timer delivers its answer.
import Cookbook
import OpenCombine

/// What the sink saw: the last state and how many states came out.
final class Observed<State> {
    var last: State
    var states = 0
    init(_ first: State) { last = first }
}

/// `.increment` sent n times into the loop (no feedbacks, as the feature has none).
@inline(never)
func combineCounter(_ n: Int) -> Run {
    let host = PassthroughSubject<Counter.Event, Never>()
    let observed = Observed(Counter.initialState)
    let subscription = feedbackLoop(initial: Counter.initialState, reduce: Counter.reduce,
                                    host: host.eraseToAnyPublisher(), feedbacks: [])
        .sink { state in
            observed.last = state
            observed.states += 1
        }
    let start = now()
    for _ in 0..<n {
        host.send(.increment)
    }
    let end = now()
    subscription.cancel()
    guard observed.last.count == n, observed.states == n else {
        fail("OpenCombine counter: count \(observed.last.count), \(observed.states) states after \(n) increments")
    }
    return Run(events: n, nanoseconds: end - start)
}

/// The timers the `throwTimer` effect started, as the host holds them.
final class Timers {
    var pending: PassthroughSubject<Playcatch.Event, Never>?
    var started = 0
}

/// The playcatch round trip, n times: the host sends `humanThrows`, the feedback starts a
/// timer, the host fires it (`machineThrows` through the timer's subject), and the
/// feedback, asking for nothing now, cancels it.
@inline(never)
func combinePlaycatch(_ n: Int) -> Run {
    let throwTimer = ThrowTimer()
    let timers = Timers()
    let feedback = CombineFeedback<Playcatch.State, Playcatch.Event>.react(throwTimer.callAsFunction) { _ in
        Deferred { () -> PassthroughSubject<Playcatch.Event, Never> in
            let timer = PassthroughSubject<Playcatch.Event, Never>()
            timers.pending = timer
            timers.started += 1
            return timer
        }
        .eraseToAnyPublisher()
    }
    let host = PassthroughSubject<Playcatch.Event, Never>()
    let observed = Observed(Playcatch.initialState)
    let subscription = feedbackLoop(initial: Playcatch.initialState, reduce: Playcatch.reduce,
                                    host: host.eraseToAnyPublisher(), feedbacks: [feedback])
        .sink { state in
            observed.last = state
            observed.states += 1
        }
    var timer: PassthroughSubject<Playcatch.Event, Never>?
    let start = now()
    for _ in 0..<n {
        host.send(.humanThrows)
        timer = timers.pending
        timers.pending = nil
        guard let timer else { fail("OpenCombine playcatch: humanThrows started no timer") }
        timer.send(.machineThrows)
    }
    let end = now()
    // The last timer was cancelled when the human caught the ball: its late answer must
    // not reach the reducer (no state comes out).
    timer?.send(.machineThrows)
    subscription.cancel()
    guard observed.last.throwCount == 2 * n, observed.states == 2 * n, timers.started == n else {
        fail("OpenCombine playcatch: \(observed.last.throwCount) throws, \(observed.states) states, "
             + "\(timers.started) timers after \(n) round trips")
    }
    return Run(events: 2 * n, nanoseconds: end - start)
}
