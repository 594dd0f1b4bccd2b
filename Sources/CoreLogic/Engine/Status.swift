/// The result codes of every fallible operation, shared by the engine, the C ABI
/// (`CORELOGIC_*` in `include/corelogic.h`) and the golden files (docs/contract.md §6, §8).
///
/// Codes are stable and only ever appended.
public enum Status: Int32, CaseIterable, Sendable {
    case ok = 0
    /// Input for an effect that is not running; dropped.
    case stale = 1
    /// Not valid JSON, bad UTF-8, or over a limit.
    case json = -1
    /// Valid JSON that is not this feature's event or state.
    case schema = -2
    /// Unknown feature or query name.
    case notFound = -3
    /// 0, freed, or never-created system handle.
    case handle = -4
    /// Any other invalid argument, e.g. a NULL pointer.
    case arg = -5
    /// File-system error (journal, snapshot).
    case io = -6
    /// Snapshot or journal content that cannot be used.
    case corrupt = -7
    /// Memory for a result could not be allocated; nothing changed.
    case nomem = -8

    /// The C constant's name, e.g. `CORELOGIC_ERR_SCHEMA`.
    public var constantName: String {
        switch self {
        case .ok: return "CORELOGIC_OK"
        case .stale: return "CORELOGIC_STALE"
        case .json: return "CORELOGIC_ERR_JSON"
        case .schema: return "CORELOGIC_ERR_SCHEMA"
        case .notFound: return "CORELOGIC_ERR_NOT_FOUND"
        case .handle: return "CORELOGIC_ERR_HANDLE"
        case .arg: return "CORELOGIC_ERR_ARG"
        case .io: return "CORELOGIC_ERR_IO"
        case .corrupt: return "CORELOGIC_ERR_CORRUPT"
        case .nomem: return "CORELOGIC_ERR_NOMEM"
        }
    }

    /// The golden-file spelling (docs/contract.md §8): `ok`, `stale`, `error:schema`, ...
    public var goldenName: String {
        switch self {
        case .ok: return "ok"
        case .stale: return "stale"
        default:
            let name = constantName.dropFirst("CORELOGIC_ERR_".count)
            return "error:" + name.lowercased()
        }
    }
}

/// An error with a status and a message that says what and where.
public struct CoreLogicError: Error, CustomStringConvertible, Sendable {
    public var status: Status
    public var message: String

    public init(_ status: Status, _ message: String) {
        self.status = status
        self.message = message
    }

    public var description: String { "\(status.constantName): \(message)" }
}

/// The error type the engine, the wire layer and the C exports are declared to throw:
/// `any Error` in the native library, ``CoreLogicError`` alone in the WebAssembly build.
#if hasFeature(Embedded)
public typealias CoreLogicFailure = CoreLogicError
#else
public typealias CoreLogicFailure = any Error
#endif
