// A system operator with feedback loops on OpenCombine, in the style of RxFeedback and
// CombineFeedback: the anchor that shows what corelogic's engine costs beside the
// reactive way of running the same feature. Written for this benchmark, no more general
// than the two features it runs need.
import OpenCombine

/// One feedback of the loop: from the stream of states, the events its effects answer with.
struct CombineFeedback<State, Event> {
    let events: (AnyPublisher<State, Never>) -> AnyPublisher<Event, Never>

    /// One effect at a time, keyed by its request, as corelogic's `Feedback.react`: `query`
    /// maps each state to the request it wants, nil for none. A request equal to the last
    /// one changes nothing (`removeDuplicates`); a different one cancels the running effect
    /// and subscribes to the new one, latest wins (`switchToLatest`); nil cancels the
    /// running one. `effect` is subscribed once per new request and its events are fed
    /// back to the reducer.
    static func react<Request: Equatable>(
        _ query: @escaping (State) -> Request?,
        effect: @escaping (Request) -> AnyPublisher<Event, Never>
    ) -> CombineFeedback {
        CombineFeedback { states in
            states
                .map(query)
                .removeDuplicates()
                .map { request in request.map(effect) ?? Empty().eraseToAnyPublisher() }
                .switchToLatest()
                .eraseToAnyPublisher()
        }
    }
}

/// The system operator: the host's events and every feedback's events merged, reduced into
/// the state one at a time (`scan`), each new state published to the feedbacks through a
/// subject that holds the latest one. Nothing runs until the returned publisher is
/// subscribed; the feedbacks then see the initial state first.
///
/// Everything runs on the sending thread, synchronously: an effect here answers later, when
/// the host sends its event (as a timer does), never from inside its subscription.
/// OpenCombine 0.14.0 has no `Merge`: merging is a `flatMap` over the event publishers,
/// which is what `MergeMany` does.
func feedbackLoop<State, Event>(
    initial: State,
    reduce: @escaping (inout State, Event) -> Void,
    host: AnyPublisher<Event, Never>,
    feedbacks: [CombineFeedback<State, Event>]
) -> AnyPublisher<State, Never> {
    Deferred { () -> AnyPublisher<State, Never> in
        let state = CurrentValueSubject<State, Never>(initial)
        let states = state.eraseToAnyPublisher()
        let events = ([host] + feedbacks.map { $0.events(states) }).publisher.flatMap { $0 }
        return events
            .scan(initial) { current, event in
                var next = current
                reduce(&next, event)
                return next
            }
            .handleEvents(receiveOutput: { state.send($0) })
            .eraseToAnyPublisher()
    }
    .eraseToAnyPublisher()
}
