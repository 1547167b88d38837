/// Process exit codes, from BSD's sysexits.h.
public enum ExitCode: Int32, Sendable {
    case success = 0
    /// A run finished but what it checked failed (a `check` found a violation).
    case failure = 1
    /// The command was used incorrectly: an unknown option, a missing argument.
    case usage = 64
    /// The input data was wrong: a malformed or invalid scenario.
    case dataError = 65
    /// An input file did not exist or could not be read.
    case noInput = 66
    /// An internal error.
    case software = 70
    /// An output directory could not be created.
    case cannotCreate = 73
    /// An output file could not be written.
    case ioError = 74
    /// Interrupted by SIGINT (128 + 2), as shells report it.
    case interrupted = 130
}

/// An error the front end reports with a message and an exit code.
public struct CommandError: Error, Equatable, Sendable {
    public var message: String
    public var code: ExitCode
    /// Print the command's usage line after the message.
    public var showUsage: Bool

    /// Further errors found with the first, each printed on an `error:`
    /// line of its own (a scenario with mistakes in two widgets).
    public var moreMessages: [String] = []

    public init(_ message: String, code: ExitCode, showUsage: Bool = false) {
        self.message = message
        self.code = code
        self.showUsage = showUsage
    }

    /// The errors of `lines`, the first as the message.
    init(lines: [String], code: ExitCode) {
        self.init(lines.first ?? "", code: code)
        moreMessages = Array(lines.dropFirst())
    }

    static func usage(_ message: String) -> CommandError {
        CommandError(message, code: .usage, showUsage: true)
    }
}
