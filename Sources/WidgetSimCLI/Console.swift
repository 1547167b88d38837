import Foundation

/// Where the front end writes: standard output for results, standard error
/// for errors and progress. Tests capture it instead.
public protocol Console: AnyObject {
    func out(_ text: String)
    func err(_ text: String)
}

/// The process's real standard output and error.
public final class StandardConsole: Console {
    public init() {}

    public func out(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    public func err(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}

/// A console that keeps what was written, for tests.
public final class CapturingConsole: Console {
    public private(set) var output = ""
    public private(set) var errors = ""

    public init() {}

    public func out(_ text: String) { output += text + "\n" }
    public func err(_ text: String) { errors += text + "\n" }
}
