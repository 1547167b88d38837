import Foundation
import WidgetSim

/// Where the front end writes: standard output for results, standard error
/// for errors and progress. Tests capture it instead.
public protocol Console: AnyObject {
    func out(_ text: String)
    func err(_ text: String)
}

/// The process's real standard output and error.
///
/// Written with `write(2)`, retrying short writes. A closed pipe
/// (`widgetsim list | head -1`) loses the text, never the run. Any other
/// failure to write standard output (a full disk: `> /dev/full`) is kept in
/// `outputFailure`, and the run then exits 74: what it printed is its
/// result, and the result was lost.
public final class StandardConsole: Console {
    /// Why writing standard output failed, other than a closed pipe; nil if it never did.
    public private(set) var outputFailure: String?

    public init() {}

    /// Lines of text; control characters from a scenario (an escape sequence
    /// in a description, say) are shown, never sent to the terminal.
    public func out(_ text: String) {
        let failure = StandardConsole.write(DisplayText.visible(text, keepingNewlines: true) + "\n", to: 1)
        if let failure, failure != EPIPE, outputFailure == nil { outputFailure = String(cString: strerror(failure)) }
    }

    public func err(_ text: String) { _ = StandardConsole.write(DisplayText.visible(text, keepingNewlines: true) + "\n", to: 2) }

    /// Writes `text` whole; returns the error number if a write failed.
    static func write(_ text: String, to descriptor: Int32) -> Int32? {
        WriteAll.write(Array(text.utf8)[...], to: descriptor)
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
