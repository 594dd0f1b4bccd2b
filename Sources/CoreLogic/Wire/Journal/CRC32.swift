/// CRC-32 (IEEE 802.3, the polynomial of zlib, gzip and PNG), so a record's checksum can
/// be checked with ordinary tools (`python3 -c 'import zlib; ...'`).
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index -> UInt32 in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        table.withUnsafeBufferPointer { table in
            for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
        return crc ^ 0xFFFF_FFFF
    }

    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0) }
    }

    /// Appends eight lowercase hex digits without allocating.
    static func appendHex(_ value: UInt32, to out: inout _ByteBuffer) {
        for shift in stride(from: 28, through: 0, by: -4) {
            let digit = UInt8(truncatingIfNeeded: (value >> UInt32(shift)) & 0xF)
            out.append(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10)
        }
    }

    /// Eight lowercase hex digits.
    static func hex(_ value: UInt32) -> [UInt8] {
        let digits = Array("0123456789abcdef".utf8)
        return (0..<8).map { digits[Int((value >> UInt32(28 - 4 * $0)) & 0xF)] }
    }
}
