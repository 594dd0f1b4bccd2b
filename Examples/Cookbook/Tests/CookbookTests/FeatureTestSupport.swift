import XCTest
@testable import CoreLogic
@testable import Cookbook

/// A command without its request, for comparing whole batches; requests are checked
/// with their own types through ``System/Outcome/request(_:as:)``.
enum Effect: Equatable, CustomStringConvertible {
    case cancel(UInt64)
    case start(UInt64, String)

    init(_ command: EffectCommand) {
        switch command {
        case .cancel(let id): self = .cancel(id)
        case .start(let id, let feedback, _): self = .start(id, feedback)
        }
    }

    var description: String {
        switch self {
        case .cancel(let id): return "cancel \(id)"
        case .start(let id, let feedback): return "start \(id) \(feedback)"
        }
    }
}

extension System.Batch {
    var effects: [Effect] { commands.map(Effect.init) }

    /// The request of the effect this batch started with id `id`.
    func request<R>(_ id: UInt64, as type: R.Type) -> R? {
        for case .start(id, _, let request) in commands { return request as? R }
        return nil
    }

    /// The requests of every effect this batch started for `feedback`, in order.
    func started<R>(_ feedback: String, as type: R.Type) -> [R] {
        commands.compactMap { command in
            if case .start(_, feedback, let request) = command { return request as? R }
            return nil
        }
    }
}

extension System.Outcome {
    var effects: [Effect] { batch?.effects ?? [] }
    func request<R>(_ id: UInt64, as type: R.Type) -> R? { batch?.request(id, as: type) }
}

extension System {
    /// The running effects as (id, feedback) pairs.
    var running: [Effect] { runningEffects.map { .start($0.id, $0.feedback) } }

    /// The request of the running effect of `feedback`, if exactly one runs.
    func runningRequest<R>(_ feedback: String, as type: R.Type) -> R? {
        let matches = runningEffects.filter { $0.feedback == feedback }
        return matches.count == 1 ? matches[0].request as? R : nil
    }

    /// Sends every event in order; returns every command they produced.
    func sendAll(_ events: [F.Event]) throws -> [Effect] {
        var all: [Effect] = []
        for event in events { all += try send(event).effects }
        return all
    }
}

/// Records every command a system produces, across calls.
final class CommandLog<F: Feature> {
    private(set) var commands: [EffectCommand] = []

    init(_ system: System<F>) {
        commands = system.initialBatch.commands
        system.onCommand = { [unowned self] in self.commands.append($0) }
    }

    var effects: [Effect] { commands.map(Effect.init) }

    func starts(of feedback: String) -> [UInt64] {
        commands.compactMap { if case .start(let id, feedback, _) = $0 { return id } else { return nil } }
    }

    func requests<R>(of feedback: String, as type: R.Type) -> [R] {
        commands.compactMap { if case .start(_, feedback, let request) = $0 { return request as? R } else { return nil } }
    }
}
