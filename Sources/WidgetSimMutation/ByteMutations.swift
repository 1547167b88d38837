import WidgetSim

/// Edits that ignore structure: they work on the bytes of any file, after
/// the structured edits, and find what a careful reader of text must survive.
enum ByteMutations {
    enum Operation: CaseIterable {
        case truncate, flipBytes, utf16, byteOrderMark, invalidUTF8, nulByte, crlf, empty
    }

    /// One byte-level edit of `bytes`, described with `file`.
    static func mutate(_ bytes: inout [UInt8], file: String, random: inout RandomStream) -> MutationEdit {
        let operation = random.weighted([
            (30, Operation.truncate), (30, .flipBytes), (6, .utf16), (6, .byteOrderMark),
            (10, .invalidUTF8), (6, .nulByte), (8, .crlf), (2, .empty),
        ])
        return apply(operation, to: &bytes, file: file, random: &random)
    }

    static func apply(_ operation: Operation, to bytes: inout [UInt8], file: String, random: inout RandomStream) -> MutationEdit {
        switch operation {
        case .truncate:
            let length = bytes.isEmpty ? 0 : random.nextInt(below: bytes.count)
            bytes.removeLast(bytes.count - length)
            return MutationEdit("truncate", "\(file): cut to its first \(length) bytes")
        case .flipBytes:
            guard !bytes.isEmpty else { return MutationEdit("flipBytes", "\(file): empty, nothing to flip") }
            let count = random.editCount(most: 8)
            var places: [String] = []
            for _ in 0..<count {
                let offset = random.nextInt(below: bytes.count)
                if random.nextBool(probability: 0.5) {
                    bytes[offset] ^= UInt8(1) << UInt8(random.nextInt(below: 8))
                } else {
                    bytes[offset] = UInt8(truncatingIfNeeded: random.next())
                }
                places.append("\(offset)")
            }
            return MutationEdit("flipBytes", "\(file): bytes at \(places.joined(separator: ", "))")
        case .utf16:
            let bigEndian = random.nextBool(probability: 0.5)
            let withMark = random.nextBool(probability: 0.5)
            let text = String(decoding: bytes, as: UTF8.self)
            var encoded: [UInt8] = withMark ? (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) : []
            encoded.reserveCapacity(bytes.count * 2 + 2)
            for unit in text.utf16 {
                let high = UInt8(unit >> 8), low = UInt8(unit & 0xFF)
                encoded += bigEndian ? [high, low] : [low, high]
            }
            bytes = encoded
            return MutationEdit("utf16", "\(file): re-encoded as UTF-16\(bigEndian ? "BE" : "LE")\(withMark ? " with a byte-order mark" : "")")
        case .byteOrderMark:
            let mark: [UInt8] = random.pick([[0xEF, 0xBB, 0xBF], [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF], [0xFE, 0xFF], [0xEF, 0xBB]])
            let offset = random.nextBool(probability: 0.7) ? 0 : random.nextInt(below: bytes.count + 1)
            bytes.insert(contentsOf: mark, at: offset)
            return MutationEdit("byteOrderMark", "\(file): \(mark.map { String($0, radix: 16) }.joined(separator: " ")) at byte \(offset)")
        case .invalidUTF8:
            let sequence: [UInt8] = random.pick([[0xFF], [0xC0, 0x80], [0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0xF0]])
            let offset = random.nextInt(below: bytes.count + 1)
            bytes.insert(contentsOf: sequence, at: offset)
            return MutationEdit("invalidUTF8", "\(file): \(sequence.map { String($0, radix: 16) }.joined(separator: " ")) at byte \(offset)")
        case .nulByte:
            let offset = random.nextInt(below: bytes.count + 1)
            bytes.insert(0, at: offset)
            return MutationEdit("nulByte", "\(file): NUL at byte \(offset)")
        case .crlf:
            var converted: [UInt8] = []
            converted.reserveCapacity(bytes.count + bytes.count / 16)
            for byte in bytes {
                if byte == 0x0A { converted.append(0x0D) }
                converted.append(byte)
            }
            bytes = converted
            return MutationEdit("crlf", "\(file): CRLF line endings")
        case .empty:
            bytes = []
            return MutationEdit("empty", "\(file): emptied")
        }
    }
}
