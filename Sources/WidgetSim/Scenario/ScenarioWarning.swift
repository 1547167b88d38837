import Foundation

/// Something a scenario says that is valid but is probably not what its
/// author meant: it names the file, the field, its line and column, and
/// what the simulator (and WidgetKit) will do with it.
///
/// A warning never stops a run and never changes an exit code; the command
/// line prints it on standard error, prefixed "warning: ".
public struct ScenarioWarning: Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var field: String
    public var line: Int
    public var column: Int
    public var message: String
    /// The variant whose patch the warning comes from; nil for the scenario as written.
    public var variant: String?

    public var description: String {
        let place = "\(file):\(line):\(column): field '\(field)': \(message)"
        return variant.map { "in variant '\($0)': \(place)" } ?? place
    }

    /// Equal when every stored property is (as the synthesized `==` would
    /// be), counted in `equalityTests` when a task has set one.
    public static func == (a: ScenarioWarning, b: ScenarioWarning) -> Bool {
        equalityTests?.add()
        return a.file == b.file && a.field == b.field && a.line == b.line && a.column == b.column && a.message == b.message
            && a.variant == b.variant
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(file)
        hasher.combine(field)
        hasher.combine(line)
        hasher.combine(column)
        hasher.combine(message)
        hasher.combine(variant)
    }

    /// Counts the equality tests of warnings made in a task (nil: not
    /// counted), so a test can check that loading a scenario compares
    /// warnings a number of times linear in the file, not quadratic, without
    /// timing anything.
    @TaskLocal static var equalityTests: OperationCount?
}

/// A count that a task can add to (see `ScenarioWarning.equalityTests`).
final class OperationCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }

    func add() {
        lock.lock()
        count += 1
        lock.unlock()
    }
}

/// Collects the warnings of one decoding, in the order the decoder meets the
/// fields (file order), so they print the same way on every run.
///
/// Promised: a warning costs constant time whatever the number before it.
/// The duplicate check is a hash set: a scan of the list made a file with
/// one bare-number duration per script action quadratic (a 16 MiB script
/// took minutes; `ScenarioWarning.equalityTests` lets a test count it).
final class ScenarioWarningLog {
    private(set) var warnings: [ScenarioWarning] = []
    /// The warnings already logged, for the duplicate check.
    private var logged: Set<ScenarioWarning> = []

    func warn(_ value: ValueReader, _ message: String) {
        let warning = ScenarioWarning(
            file: value.file, field: value.path, line: value.position.line, column: value.position.column, message: message)
        // A field read twice (a distribution's parts, say) warns once.
        if logged.insert(warning).inserted { warnings.append(warning) }
    }

    /// Whether `warning` was logged (its `variant` included).
    func contains(_ warning: ScenarioWarning) -> Bool {
        logged.contains(warning)
    }
}
