import Foundation

/// Text written to a file through a small buffer, so a generated input of
/// any size never sits in this process's memory.
///
/// Why: on Linux a child's peak resident memory (`ru_maxrss`) can read no
/// lower than its parent's peak when it was spawned, since the kernel carries
/// the spawning process's high-water mark across `exec`. Keeping the
/// benchmark small keeps its children's figures their own.
struct FileSink {
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    /// Bytes appended so far.
    private(set) var count = 0

    static let bufferBytes = 1 << 18

    init(path: String) throws(BenchError) {
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw BenchError("cannot write \(path)", code: 73)
        }
        self.handle = handle
        buffer.reserveCapacity(FileSink.bufferBytes)
    }

    mutating func append(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        count += text.utf8.count
        if buffer.count >= FileSink.bufferBytes { flush() }
    }

    mutating func append(_ byte: UInt8) {
        buffer.append(byte)
        count += 1
        if buffer.count >= FileSink.bufferBytes { flush() }
    }

    private mutating func flush() {
        buffer.withUnsafeBytes { handle.write(Data($0)) }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes what is buffered and closes the file.
    mutating func close() {
        flush()
        try? handle.close()
    }
}
