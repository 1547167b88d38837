import Foundation
import WidgetSim

/// The median; the mean of the middle two for an even count.
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func format(_ value: Double, _ decimals: Int) -> String { FixedDecimal.format(value, decimals: decimals) }

/// Writes a progress line to standard error, after whatever the report has
/// printed so far: sent to one file (`make bench > log 2>&1`), the
/// block-buffered report was otherwise cut mid-line by the progress after it.
func progress(_ line: String) {
    fflush(nil)
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// This program's path, for running itself as a child.
func thisExecutable() -> String {
    URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
}

/// The first executable file named `name` in a directory of PATH, or nil.
/// (posix_spawn does not search PATH, so a program found there is run by its path.)
func findOnPath(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    for directory in path.split(separator: ":") where !directory.isEmpty {
        let candidate = "\(directory)/\(name)"
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
}
