/// Something a scenario says that is valid but is probably not what its
/// author meant: it names the file, the field, its line and column, and
/// what the simulator (and WidgetKit) will do with it.
///
/// A warning never stops a run and never changes an exit code; the command
/// line prints it on standard error, prefixed "warning: ".
public struct ScenarioWarning: Equatable, Sendable, CustomStringConvertible {
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
}

/// Collects the warnings of one decoding, in the order the decoder meets the
/// fields (file order), so they print the same way on every run.
final class ScenarioWarningLog {
    private(set) var warnings: [ScenarioWarning] = []

    func warn(_ value: ValueReader, _ message: String) {
        let warning = ScenarioWarning(
            file: value.file, field: value.path, line: value.position.line, column: value.position.column, message: message)
        // A field read twice (a distribution's parts, say) warns once.
        if !warnings.contains(warning) { warnings.append(warning) }
    }
}
