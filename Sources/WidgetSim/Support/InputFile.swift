import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why an input file could not be read, in plain words.
public enum InputFileError: Error, Equatable, Sendable, CustomStringConvertible {
    case missing(path: String)
    case notRegular(path: String, kind: String)
    case tooLarge(path: String, limit: Int)
    case unreadable(path: String, reason: String)
    case notUTF8(path: String, reason: String)

    public var description: String { "\(path): \(reason)" }

    /// The file concerned.
    public var path: String {
        switch self {
        case .missing(let path), .notRegular(let path, _), .tooLarge(let path, _), .unreadable(let path, _), .notUTF8(let path, _): return path
        }
    }

    /// True when the file is there but its contents are not acceptable
    /// (too large, not UTF-8): bad data (exit 65) rather than no input (66).
    public var isDataError: Bool {
        switch self {
        case .tooLarge, .notUTF8: return true
        case .missing, .notRegular, .unreadable: return false
        }
    }

    /// What is wrong, in plain words, without the path.
    public var reason: String {
        switch self {
        case .missing: return "no such file"
        case .notRegular(_, let kind): return "\(kind), not a regular file; give the path of a file"
        case .tooLarge(_, let limit): return "larger than \(InputFile.describe(bytes: limit)), the most this input may be"
        case .unreadable(_, let reason): return "cannot read the file: \(reason)"
        case .notUTF8(_, let reason): return reason
        }
    }
}

/// Reads input files safely: only regular files, at most a given size, and
/// never waiting on a pipe or a device.
///
/// Promised: a FIFO, a socket, a device or a directory is refused at once
/// (the file is opened without blocking and checked with `fstat`, so a path
/// that changes between the check and the read cannot slip through); at most
/// `limit + 1` bytes are ever read; the error says what is wrong in plain
/// words (a missing file, a symbolic link to nothing, permission denied, a
/// directory, UTF-16 text).
public enum InputFile {
    /// The bytes of the regular file at `path`, at most `limit` of them.
    public static func bytes(at path: String, limit: Int) throws(InputFileError) -> [UInt8] {
        let (descriptor, status) = try openRegular(path)
        defer { close(descriptor) }
        guard Int(status.st_size) <= limit else { throw .tooLarge(path: path, limit: limit) }
        // Back to blocking reads: a regular file never blocks for long.
        _ = fcntl(descriptor, F_SETFL, 0)
        // Plainly not text (UTF-16, or a sparse file of zeros): refused from
        // its first bytes, before its whole size is allocated and read.
        var head = [UInt8](repeating: 0, count: 4)
        let headCount = pread(descriptor, &head, 4, 0)
        if headCount >= 2, let problem = leadingEncodingProblem(Array(head.prefix(headCount))) {
            throw .notUTF8(path: path, reason: problem)
        }
        var bytes = [UInt8](repeating: 0, count: min(limit, Int(status.st_size)) + 1)
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, reason: plainReason(errno))
            }
            if count == 0 { break }
            filled += count
        }
        // The file may have grown since fstat: never accept more than the limit.
        guard filled <= limit else { throw .tooLarge(path: path, limit: limit) }
        bytes.removeLast(bytes.count - filled)
        return bytes
    }

    /// The first `count` bytes (or fewer) of the regular file at `path`,
    /// whatever its size: enough to read a header and tell what the file is.
    public static func head(at path: String, count: Int) throws(InputFileError) -> [UInt8] {
        let (descriptor, _) = try openRegular(path)
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: max(0, count))
        var filled = 0
        while filled < bytes.count {
            let read = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + filled, buffer.count - filled, off_t(filled))
            }
            if read < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, reason: plainReason(errno))
            }
            if read == 0 { break }
            filled += read
        }
        bytes.removeLast(bytes.count - filled)
        return bytes
    }

    /// The regular file at `path`, opened for reading without blocking (a
    /// named pipe is refused, never waited on), and its status.
    static func openRegular(_ path: String) throws(InputFileError) -> (descriptor: Int32, status: stat) {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR || code == ELOOP {
                // The name is there but leads nowhere: "no such file", with a
                // "did you mean" that lists the name itself, would not say why.
                if let broken = brokenLink(path) { throw .unreadable(path: path, reason: broken.reason) }
                if code != ELOOP { throw .missing(path: path) }
            }
            throw .unreadable(path: path, reason: plainReason(code))
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let reason = plainReason(errno)
            close(descriptor)
            throw .unreadable(path: path, reason: reason)
        }
        let type = status.st_mode & S_IFMT
        guard type == S_IFREG else {
            close(descriptor)
            throw .notRegular(path: path, kind: kindName(type))
        }
        return (descriptor, status)
    }

    /// The UTF-8 text of the regular file at `path`, at most `limit` bytes.
    /// UTF-16 and other non-UTF-8 text is refused with a message that says so.
    public static func text(at path: String, limit: Int) throws(InputFileError) -> String {
        let bytes = try bytes(at: path, limit: limit)
        if let problem = encodingProblem(bytes) { throw .notUTF8(path: path, reason: problem) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Nil for UTF-8 text; otherwise what is wrong with the bytes, in words.
    public static func encodingProblem(_ bytes: [UInt8]) -> String? {
        if let problem = leadingEncodingProblem(bytes) { return problem }
        if String(validating: bytes, as: UTF8.self) == nil {
            return "the file is not UTF-8 text"
        }
        return nil
    }

    /// What the first bytes alone show to be wrong: a UTF-32 or UTF-16
    /// byte-order mark (UTF-32's little-endian one starts as UTF-16's does,
    /// so it is asked first), or a zero byte in the first two, which UTF-16
    /// and UTF-32 text (and no UTF-8 text) starts with.
    static func leadingEncodingProblem(_ bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00]) || bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) {
            return "the file is UTF-32 text (it starts with a UTF-32 byte-order mark); save it as UTF-8"
        }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            return "the file is UTF-16 text (it starts with a UTF-16 byte-order mark); save it as UTF-8"
        }
        if bytes.count >= 2 && (bytes[0] == 0 || bytes[1] == 0) {
            return "the file holds zero bytes, as UTF-16 and UTF-32 text do; save it as UTF-8"
        }
        return nil
    }

    /// Why a symbolic link cannot be followed: it leads to a name that does
    /// not exist, or round a loop.
    public enum BrokenLink: Equatable, Sendable {
        /// The missing name the link leads to, through any links on the way.
        case leadsTo(String)
        /// Links that lead back to themselves (or more of them in a row than
        /// the system follows, which it takes for the same thing).
        case loop

        /// What is wrong, in plain words, without the path.
        public var reason: String {
            switch self {
            case .leadsTo(let target): return "it is a symbolic link that leads to '\(target)', which does not exist"
            case .loop: return "it is a loop of symbolic links"
            }
        }
    }

    /// Why the symbolic link at `path` leads nowhere, when `path` is a link
    /// that could not be opened: the missing name it leads to, through any
    /// links on the way (`b.json` → `a.json` → `nowhere.json` leads to
    /// `nowhere.json`), or a loop (`a` → `b` → `a`), which leads to a name
    /// that does exist. Nil when `path` is not a symbolic link.
    public static func brokenLink(_ path: String) -> BrokenLink? {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return nil }
        // The system's own verdict: a loop is not "no such file", and
        // telling it by hand would have to read every link as the system does.
        if stat(path, &status) != 0 && errno == ELOOP { return .loop }
        var link = path
        var target = ""
        // At most as many links as the system follows before it gives up.
        for _ in 0..<40 {
            guard lstat(link, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return .leadsTo(target) }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(link, &buffer, buffer.count - 1)
            guard count >= 0 else { return .leadsTo(target) }
            let next = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            target = next
            // A relative target is relative to the link's own directory.
            link = next.hasPrefix("/") ? next : URL(fileURLWithPath: link).deletingLastPathComponent().appendingPathComponent(next).path
        }
        return .loop
    }

    static func kindName(_ type: mode_t) -> String {
        switch type {
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a named pipe (FIFO)"
        case S_IFSOCK: return "a socket"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        default: return "not a regular file"
        }
    }

    /// The system's reason, in plain words for the usual cases.
    static func plainReason(_ code: Int32) -> String {
        switch code {
        case EACCES, EPERM: return "permission denied"
        case EISDIR: return "it is a directory"
        // The file itself is no loop (`brokenLink` tells that apart first),
        // so a directory on its way is: the system says only "too many".
        case ELOOP: return "its path goes through a loop of symbolic links"
        case ENAMETOOLONG: return "the path is too long"
        default: return String(cString: strerror(code))
        }
    }

    /// "16 MiB", "512 KiB", "300 bytes".
    public static func describe(bytes: Int) -> String {
        if bytes >= 1_048_576 && bytes % 1_048_576 == 0 { return "\(bytes / 1_048_576) MiB" }
        if bytes >= 1_024 && bytes % 1_024 == 0 { return "\(bytes / 1_024) KiB" }
        return "\(bytes) bytes"
    }
}
