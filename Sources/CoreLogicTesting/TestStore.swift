import XCTest
import CoreLogic

/// Tests a feature exhaustively, one input at a time: every change of state and every
/// effect command must be asserted, or the test fails.
///
/// ```swift
/// let store = TestStore<Notes>()
/// store.send(.add(text: "milk")) { $0.items = ["milk"] }
/// store.send(.save) { $0.saving = true }
/// let save = store.started("save", Notes.SaveRequest(items: ["milk"]))
/// store.deliver(save, .saved) { $0.saving = false }
/// store.cancelled(save)
/// store.finish()
/// ```
///
/// The rules:
/// - `send`, `deliver` and `complete` take a closure that changes the state before the
///   input into the state expected after it. The test fails, with both states as JSON,
///   when the actual state differs; no closure means "the state does not change".
/// - Every command an input produced (in order: cancels and starts) must be claimed
///   with ``started(_:_:file:line:)`` or ``cancelled(_:file:line:)`` before the next
///   input, and before ``finish()``; an unclaimed command fails the test there.
/// - A stale input (an effect that is not running) fails the test unless sent through
///   ``deliverStale(_:_:file:line:)``, which asserts exactly that.
/// - After every applied input, the feature's ``Feature/invariants`` must hold; a broken
///   one fails the test there, with its name and message.
///
/// Requests are compared by their JSON (the engine's rule for "the same effect").
public final class TestStore<F: Feature> where F.State: Equatable {
    /// The state after the last input.
    public private(set) var state: F.State
    private let system: System<F>
    /// Commands produced and not yet claimed, in order.
    private var pending: [EffectCommand]
    /// How a failed assertion is reported: `XCTFail` unless replaced (a test of a test
    /// helper collects them instead).
    public var reportFailure: (_ message: String, _ file: StaticString, _ line: UInt) -> Void = {
        XCTFail($0, file: $1, line: $2)
    }

    /// A store on `initialState` (the feature's initial state by default). The commands
    /// of the initial evaluation of the feedbacks are pending, like any input's.
    public init(initialState: F.State? = nil) {
        system = System<F>(state: initialState)
        state = system.initialBatch.state
        pending = system.initialBatch.commands
    }

    /// Sends `event`; `update` turns the state before it into the state expected after it.
    public func send(
        _ event: F.Event, file: StaticString = #filePath, line: UInt = #line,
        _ update: ((inout F.State) -> Void)? = nil
    ) {
        apply("send", file: file, line: line, update) { try system.send(event) }
    }

    /// Delivers `event` as the answer of the running effect `effect`.
    public func deliver(
        _ effect: UInt64, _ event: F.Event, file: StaticString = #filePath, line: UInt = #line,
        _ update: ((inout F.State) -> Void)? = nil
    ) {
        apply("deliver to effect \(effect)", file: file, line: line, update) { try system.deliver(effect, event) }
    }

    /// Says that the running effect `effect` finished without an answer.
    public func complete(
        _ effect: UInt64, file: StaticString = #filePath, line: UInt = #line,
        _ update: ((inout F.State) -> Void)? = nil
    ) {
        apply("complete effect \(effect)", file: file, line: line, update) { try system.complete(effect) }
    }

    /// Asserts that delivering `event` to `effect` is stale: the effect is not running,
    /// the answer never reaches the reducer, nothing changes.
    public func deliverStale(_ effect: UInt64, _ event: F.Event, file: StaticString = #filePath, line: UInt = #line) {
        failOnPending(before: "deliver to effect \(effect)", file: file, line: line)
        do {
            let outcome = try system.deliver(effect, event)
            if !outcome.isStale { reportFailure("deliver to effect \(effect): expected stale, the input was applied", file, line) }
        } catch {
            reportFailure("deliver to effect \(effect): \(error)", file, line)
        }
        if system.state != state { reportFailure("deliver to effect \(effect): a stale input changed the state", file, line) }
    }

    /// Claims the next pending command: the start of an effect of `feedback` with
    /// `request`. Returns its id, to deliver its answer with.
    @discardableResult
    public func started<Request: Encodable>(
        _ feedback: String, _ request: Request, file: StaticString = #filePath, line: UInt = #line
    ) -> UInt64 {
        guard !pending.isEmpty else {
            reportFailure("expected the start of \(feedback) \(json(request)); no command is pending", file, line)
            return 0
        }
        let command = pending.removeFirst()
        guard case .start(let id, let name, let actual) = command else {
            reportFailure("expected the start of \(feedback) \(json(request)); the next command is \(describe(command))", file, line)
            return command.id
        }
        if name != feedback || json(actual) != json(request) {
            reportFailure("expected the start of \(feedback) \(json(request)); the next command is \(describe(command))", file, line)
        }
        return id
    }

    /// Claims the next pending command: the cancel of effect `effect`.
    public func cancelled(_ effect: UInt64, file: StaticString = #filePath, line: UInt = #line) {
        guard !pending.isEmpty else {
            reportFailure("expected the cancel of effect \(effect); no command is pending", file, line)
            return
        }
        let command = pending.removeFirst()
        guard case .cancel(effect) = command else {
            reportFailure("expected the cancel of effect \(effect); the next command is \(describe(command))", file, line)
            return
        }
    }

    /// Ends the test: every command must have been claimed.
    public func finish(file: StaticString = #filePath, line: UInt = #line) {
        failOnPending(before: "finish", file: file, line: line)
    }

    // MARK: - Internal

    private func apply(
        _ what: String, file: StaticString, line: UInt, _ update: ((inout F.State) -> Void)?,
        _ input: () throws -> System<F>.Outcome
    ) {
        failOnPending(before: what, file: file, line: line)
        var expected = state
        update?(&expected)
        let outcome: System<F>.Outcome
        do {
            outcome = try input()
        } catch {
            reportFailure("\(what): \(error)", file, line)
            return
        }
        guard let batch = outcome.batch else {
            reportFailure("\(what): expected the input to be applied, it was \(outcome.isStale ? "stale" : "queued")", file, line)
            return
        }
        if batch.state != expected {
            reportFailure("""
                \(what): the state is not the one expected
                  expected: \(json(expected))
                  actual:   \(json(batch.state))
                """, file, line)
        }
        state = batch.state
        pending = batch.commands
        for broken in F.brokenInvariants(in: batch.state) {
            reportFailure("\(what): invariant \(broken.name) is broken: \(broken.message)", file, line)
        }
    }

    private func failOnPending(before what: String, file: StaticString, line: UInt) {
        guard !pending.isEmpty else { return }
        reportFailure("\(pending.count) effect command(s) not asserted before \(what): "
                + pending.map(describe).joined(separator: ", "), file, line)
        pending.removeAll()
    }

    private func describe(_ command: EffectCommand) -> String {
        switch command {
        case .cancel(let id): return "cancel \(id)"
        case .start(let id, let feedback, let request): return "start \(id) \(feedback) \(json(request))"
        }
    }

    private func json(_ value: any Encodable) -> String {
        (try? JSONCoding.encodeToString(value)) ?? "<not encodable>"
    }
}
