# The Swift files of the WebAssembly module. Left out, because the browser build does not
# have them (docs/web.md): the journal and its file calls (Wire/Journal), traces (Trace/),
# schema derivation (Schema/), the Codable encoder and the tape decoder (JSON/JSONEncoding,
# JSON/JSONDecoding, JSON/JSONTape*, JSON/JSONCoding: Embedded Swift has no Codable; the
# generated direct conformances carry every feature's JSON), the state differ for
# Codable-only states (Patch/StateDiffer) and the C exports of persistence and traces.
S=Sources/CoreLogic
WASM_SOURCES="
$S/Embedded/*.swift
$S/Engine/*.swift $S/Engine/Internal/*.swift
$S/JSON/JSONByteBuffer.swift $S/JSON/JSONDirect.swift $S/JSON/JSONError.swift $S/JSON/JSONFailure.swift
$S/JSON/JSONLimits.swift $S/JSON/JSONParser.swift $S/JSON/JSONWriter.swift
$S/JSON/JSONValue.swift $S/JSON/JSONTape.swift $S/JSON/JSONPayloadlessCases.swift
$S/Patch/DirectDiffer.swift $S/Patch/TrackedArray.swift
$S/Trace/InputKind.swift $S/Wire/AnySystem.swift $S/Wire/AnySystem+Calls.swift $S/Wire/AppFeatures.swift $S/Wire/FeatureDescriptor.swift $S/Wire/WireSystem.swift
Sources/CoreFFI/CString.swift Sources/CoreFFI/Exports.swift Sources/CoreFFI/HandleTable.swift Sources/CoreFFI/LastError.swift Sources/CoreFFI/OutputExports.swift Sources/CoreFFI/ServedFeatures.swift
Wasm/AppCatalog.swift
Examples/Cookbook/Sources/Cookbook/*.swift Examples/Cookbook/Sources/Cookbook/Support/*.swift
Examples/Cookbook/Sources/Cookbook/Generated/*.swift Examples/Cookbook/Generated-wasm/*.swift
"
