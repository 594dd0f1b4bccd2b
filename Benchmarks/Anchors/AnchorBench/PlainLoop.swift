// The floor: the feature's pure reducer called in a `for` loop, no engine. The loop itself
// decides the effect (from the feedback's query) and delivers its answer.
//
// One event at a time, as every engine takes them: the host's events are read from an array
// made at run time and each goes through one call of the reducer, kept out of line. With
// the reducer inlined the optimizer merges the counter's additions across events (several
// at a time in vector registers; with a constant event, about one instruction per event):
// not a cost per event that a system taking events one by one could reach.
import CoreLogic
import Cookbook

/// `F.reduce`, one call per event.
@inline(never)
func reduceOne<F: Feature>(_ feature: F.Type, _ state: inout F.State, _ event: F.Event) {
    F.reduce(&state, event)
}

/// `Counter.reduce(&state, .increment)`, n times.
@inline(never)
func plainCounter(_ n: Int) -> Run {
    let events = [Counter.Event](repeating: .increment, count: n)
    var state = Counter.initialState
    let start = now()
    for event in events {
        reduceOne(Counter.self, &state, event)
    }
    let end = now()
    guard state.count == n else { fail("plain counter: count \(state.count) after \(n) increments") }
    return Run(events: n, nanoseconds: end - start)
}

/// The playcatch round trip, n times: the human throws, the loop asks the `throwTimer`
/// query and starts the timer it wants, delivers the timer's answer (the machine throws),
/// and stops the timer the query no longer wants. Each event costs one reduce and one query.
@inline(never)
func plainPlaycatch(_ n: Int) -> Run {
    let throwTimer = ThrowTimer()
    let events = [Playcatch.Event](repeating: .humanThrows, count: n)
    var state = Playcatch.initialState
    var running: Playcatch.TimerRequest?
    var started = 0
    let start = now()
    for event in events {
        reduceOne(Playcatch.self, &state, event)
        let wanted = throwTimer(state)
        if wanted != running {
            running = wanted
            if wanted != nil { started += 1 }
        }
        if running != nil {
            reduceOne(Playcatch.self, &state, .machineThrows)
            running = throwTimer(state)
        }
    }
    let end = now()
    guard state.throwCount == 2 * n, started == n, running == nil else {
        fail("plain playcatch: \(state.throwCount) throws and \(started) timers after \(n) round trips")
    }
    return Run(events: 2 * n, nanoseconds: end - start)
}
