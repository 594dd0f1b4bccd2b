// The WasmKit golden adapter: the golden driver's line protocol (docs/golden-files.md,
// "The driver and the adapters") over the WebAssembly module's exports (the C ABI of
// include/corelogic.h), run by WasmKit, the Swift WebAssembly runtime. The same answers as
// Tests/c/golden_adapter.c: it parses no JSON, the module's JSON goes to the driver as it
// is, and the driver keeps the patch-mode mirror (`mirror` answers `none`).
// Usage: WasmKitGoldenAdapter [CORELOGIC_WASM]   (default: $CORELOGIC_LIBRARY)
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import WasmKit

/// Stops the adapter: the driver reports the exit status.
func fail(_ message: String) -> Never {
    fputs("WasmKitGoldenAdapter: \(message)\n", stderr)
    exit(2)
}

let ok: Int32 = 0, stale: Int32 = 1
let outputFull: UInt32 = 0, outputPatch: UInt32 = 1

/// An instance of corelogic.wasm with the imports it needs (Wasm/runtime.c), and the
/// conventions of bindings/web/lib/wasm.js: strings in the module's memory are
/// NUL-terminated UTF-8 allocated with its malloc; returned strings are freed with
/// corelogic_free.
final class CoreLogicModule {
    let instance: Instance
    let memory: Memory
    private var functions: [String: Function] = [:]
    /// Two out-parameters in the module's memory: a string pointer at 0, a handle at 8.
    private(set) var out: UInt32 = 0

    init(path: String) throws {
        let module = try parseWasm(filePath: path)
        let store = Store(engine: Engine())
        // The memory is the instance's export; the imports reach it once it exists.
        var exported: Memory?
        let imports: Imports = [
            "env": [
                // Decimal text to a double, for the numbers the module's JSON parser leaves
                // to the host: Swift's Double(String) rounds correctly, as strtod does. NaN
                // tells the module nothing was read.
                "corelogic_wasm_parse_double": Function(store: store, parameters: [.i32, .i32], results: [.f64]) { _, arguments in
                    guard case .i32(let pointer) = arguments[0], case .i32(let length) = arguments[1], let memory = exported
                    else { return [.f64(Double.nan.bitPattern)] }
                    let text = memory.withUnsafeBufferPointer(offset: UInt(pointer), count: Int(length)) {
                        String(decoding: $0, as: UTF8.self)
                    }
                    return [.f64((Double(text) ?? .nan).bitPattern)]
                },
                // The command and state handlers' one C function calls this; the adapter
                // registers no handler, so nothing arrives.
                "corelogic_wasm_handler": Function(store: store, parameters: [.i32, .i32]) { _, _ in [] },
            ],
        ]
        instance = try module.instantiate(store: store, imports: imports)
        guard let memory = instance.exports[memory: "memory"] else { fail("the module exports no memory") }
        self.memory = memory
        exported = memory
        out = try call("malloc", [.i32(16)]).i32
        if out == 0 { fail("the module is out of memory") }
    }

    /// The exported function `name` called with `arguments`: its first result.
    @discardableResult
    func call(_ name: String, _ arguments: [Value]) throws -> Value {
        let function: Function
        if let known = functions[name] {
            function = known
        } else {
            guard let found = instance.exports[function: name] else { fail("the module exports no \(name)") }
            functions[name] = found
            function = found
        }
        return try function(arguments).first ?? .i32(0)
    }

    /// A NUL-terminated copy of `bytes` in the module's memory (free with `free`).
    func cString<Bytes: Collection>(_ bytes: Bytes) throws -> UInt32 where Bytes.Element == UInt8 {
        let pointer = try call("malloc", [.i32(UInt32(bytes.count + 1))]).i32
        if pointer == 0 { fail("the module is out of memory") }
        memory.withUnsafeMutableBufferPointer(offset: UInt(pointer), count: bytes.count + 1) { buffer in
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
        return pointer
    }

    /// Runs `body` with NUL-terminated copies of `texts` (0 for nil), freed afterwards.
    func withStrings<Result>(_ texts: [[UInt8]?], _ body: ([UInt32]) throws -> Result) throws -> Result {
        var pointers: [UInt32] = []
        defer { for pointer in pointers where pointer != 0 { _ = try? call("free", [.i32(pointer)]) } }
        for text in texts { pointers.append(try text.map { try cString($0) } ?? 0) }
        return try body(pointers)
    }

    /// The NUL-terminated UTF-8 string at `pointer`.
    func string(at pointer: UInt32) -> String {
        let available = memory.byteCount - Int(pointer)
        return memory.withUnsafeBufferPointer(offset: UInt(pointer), count: available) { buffer in
            let end = buffer.firstIndex(of: 0) ?? buffer.endIndex
            return String(decoding: buffer[..<end], as: UTF8.self)
        }
    }

    func word(at pointer: UInt32) -> UInt32 {
        memory.withUnsafeBufferPointer(offset: UInt(pointer), count: 4) { $0.loadUnaligned(as: UInt32.self).littleEndian }
    }

    func doubleWord(at pointer: UInt32) -> UInt64 {
        memory.withUnsafeBufferPointer(offset: UInt(pointer), count: 8) { $0.loadUnaligned(as: UInt64.self).littleEndian }
    }

    func clearOut() {
        memory.withUnsafeMutableBufferPointer(offset: UInt(out), count: 16) { _ = $0.initializeMemory(as: UInt8.self, repeating: 0) }
    }

    /// The string the out-parameter received, freed in the module (nil for none).
    func takeString() throws -> String? {
        let pointer = word(at: out)
        if pointer == 0 { return nil }
        let text = string(at: pointer)
        try call("corelogic_free", [.i32(pointer)])
        return text
    }
}

extension Value {
    var i32: UInt32 {
        if case .i32(let value) = self { return value }
        fail("a result is not an i32: \(self)")
    }
}

func write(_ line: String) {
    fputs(line, stdout)
    fputc(10, stdout)
    fflush(stdout)
}

/// One answer line for a call's status and the string its out-parameter received.
func reply(_ library: CoreLogicModule, _ status: Int32, _ json: String?) throws {
    if status == ok {
        write("ok " + (json ?? ""))
    } else if status == stale {
        write("stale")
    } else {
        let name = library.string(at: try library.call("corelogic_status_name", [.i32(UInt32(bitPattern: status))]).i32)
        let message = library.string(at: try library.call("corelogic_last_error", []).i32)
        write("error \(name) - " + String(message.map { $0 == "\n" || $0 == "\r" ? " " : $0 }))
    }
}

/// Standard input as lines and counted payloads.
struct Input {
    private var line: UnsafeMutablePointer<CChar>?
    private var capacity = 0

    mutating func readLine() -> String? {
        let count = getline(&line, &capacity, stdin)
        guard count > 0, let line else { return nil }
        var bytes = UnsafeRawBufferPointer(start: line, count: count)
        if bytes.last == 10 { bytes = UnsafeRawBufferPointer(rebasing: bytes.dropLast()) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `count` bytes and the newline after them (dropped); nil at the end of input.
    func readPayload(_ count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count + 1)
        let got = bytes.withUnsafeMutableBytes { fread($0.baseAddress, 1, count + 1, stdin) }
        if got != count + 1 { return nil }
        bytes.removeLast()
        return bytes
    }
}

func run() throws {
    let arguments = CommandLine.arguments
    guard let path = arguments.count > 1 ? arguments[arguments.count - 1] : getenv("CORELOGIC_LIBRARY").map({ String(cString: $0) })
    else { fail("no module given") }
    let library = try CoreLogicModule(path: path)
    var system: UInt64 = 0
    var input = Input()

    /// A call that returns a status and fills the out-parameter at `out`, answered.
    func answer(_ name: String, _ arguments: [Value]) throws {
        library.clearOut()
        let status = Int32(bitPattern: try library.call(name, arguments).i32)
        try reply(library, status, status == ok ? try library.takeString() : nil)
    }

    let out = Value.i32(library.out)
    while let line = input.readLine() {
        var command = line, argument = ""
        if let space = line.firstIndex(of: " ") {
            command = String(line[..<space])
            argument = String(line[line.index(after: space)...])
        }
        // create, send and deliver end their line with the length of the payload that follows.
        var payload: [UInt8] = []
        if command == "create" || command == "send" || command == "deliver" {
            var length = argument
            if let space = argument.lastIndex(of: " ") {
                length = String(argument[argument.index(after: space)...])
                argument = String(argument[..<space])
            }
            guard let size = Int(length), let bytes = input.readPayload(size) else { break }
            payload = bytes
        }
        switch command {
        case "features":
            try answer("corelogic_features", [out])
        case "create":
            let state: [UInt8]? = payload == Array("null".utf8) ? nil : payload
            try library.withStrings([Array(argument.utf8), state]) { strings in
                library.clearOut()
                let status = Int32(bitPattern: try library.call(
                    "corelogic_system_new", [.i32(strings[0]), .i32(strings[1]), .i32(library.out + 8), out]).i32)
                system = library.doubleWord(at: library.out + 8)
                try reply(library, status, status == ok ? try library.takeString() : nil)
            }
        case "output":
            try answer("corelogic_system_set_output", [.i64(system), .i32(argument == "patch" ? outputPatch : outputFull), out])
        case "watch":
            try library.withStrings([Array(argument.utf8)]) { try answer("corelogic_system_watch_queries", [.i64(system), .i32($0[0]), out]) }
        case "send":
            try library.withStrings([payload]) { try answer("corelogic_system_send", [.i64(system), .i32($0[0]), out]) }
        case "deliver":
            try library.withStrings([payload]) {
                try answer("corelogic_system_deliver", [.i64(system), .i64(UInt64(argument) ?? 0), .i32($0[0]), out])
            }
        case "complete":
            try answer("corelogic_system_complete", [.i64(system), .i64(UInt64(argument) ?? 0), out])
        case "query":
            try library.withStrings([Array(argument.utf8)]) { try answer("corelogic_system_query", [.i64(system), .i32($0[0]), out]) }
        case "state":
            try answer("corelogic_system_state", [.i64(system), out])
        case "check":
            try answer("corelogic_system_check", [.i64(system), out])
        case "free":
            let status = Int32(bitPattern: try library.call("corelogic_system_free", [.i64(system)]).i32)
            system = 0
            try reply(library, status, nil)
        case "mirror":
            write("none")
        default:
            write("error CORELOGIC_ERR_ARG - unknown command \(command)")
        }
    }
    if system != 0 { try library.call("corelogic_system_free", [.i64(system)]) }
}

do {
    try run()
} catch {
    fail("\(error)")
}
