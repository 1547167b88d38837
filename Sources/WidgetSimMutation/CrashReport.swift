import Foundation

/// Reads a Swift crash report (the runtime's message and the backtracer's
/// frames on standard error), so that crashes can be told apart and grouped.
public enum CrashReport {
    /// Markers of a Swift crash report on standard error.
    public static let markers = ["Fatal error", "Backtracing", "Swift runtime failure", "Program crashed"]

    /// True when `text` holds a crash report.
    public static func isCrash(_ text: String) -> Bool {
        markers.contains { text.contains($0) }
    }

    /// The runtime's reason, such as "Double value cannot be converted to Int
    /// because it is either infinite or NaN"; "Illegal instruction" when a
    /// build trapped without one (an overflow in release, say).
    public static func message(in text: String) -> String? {
        var fallback: String?
        // A line before the backtrace that is not the runtime's is the C
        // library's, such as "munmap_chunk(): invalid pointer": the heap was corrupted.
        let lines = text.split(separator: "\n")
        if let first = lines.first, !first.hasPrefix("***"), !first.hasPrefix("error:"),
           lines.dropFirst().first(where: { !$0.isEmpty })?.hasPrefix("*** Signal") == true {
            fallback = String(first)
        }
        for line in lines {
            for marker in ["Swift runtime failure: ", "Fatal error: "] {
                if let range = line.range(of: marker) {
                    return String(line[range.upperBound...]).replacingOccurrences(of: " ***", with: "").trimmingCharacters(in: .whitespaces)
                }
            }
            if fallback == nil, let range = line.range(of: "Program crashed: ") {
                let reason = line[range.upperBound...].replacingOccurrences(of: " ***", with: "")
                fallback = reason.components(separatedBy: " at 0x").first ?? reason
            }
        }
        return fallback
    }

    /// A frame of the backtrace in the project's sources.
    public struct Frame: Equatable, Sendable, CustomStringConvertible {
        /// Such as "CheckCommand.init(_:)"; empty when the line names none.
        public var function: String
        /// Such as "CheckCommand.swift".
        public var file: String
        public var line: Int

        public var description: String { function.isEmpty ? "\(file):\(line)" : "\(function) at \(file):\(line)" }
    }

    /// The first frame in the project's sources (a path with `Sources/` and a line),
    /// inlined or not: the innermost place in the project's own code.
    public static func frame(in text: String) -> Frame? {
        for line in text.split(separator: "\n") {
            // Inlined frames name their file relative to the package ("at Sources/…"), others absolutely.
            guard let sources = line.range(of: "Sources/"),
                  let at = line.range(of: " at ", options: .backwards, range: line.startIndex..<sources.lowerBound),
                  !line[at.upperBound..<sources.lowerBound].contains(" ") else { continue }
            // Folder/File.swift:line:column
            let location = line[sources.upperBound...].split(separator: " ").first?.split(separator: ":") ?? []
            guard location.count >= 2, let number = Int(location[1]) else { continue }
            let file = String(location[0].split(separator: "/").last ?? location[0])
            // "  1   0x0000… specialized CheckCommand.init(_:) + 3540 in widgetsim" -> "CheckCommand.init(_:)"
            let head = line[..<at.lowerBound]
            var function = ""
            if let image = head.range(of: " in ", options: .backwards), let address = head.range(of: " 0x") {
                function = head[address.upperBound..<image.lowerBound].split(separator: " ").dropFirst().joined(separator: " ")
                if let plus = function.range(of: " + ", options: .backwards) { function = String(function[..<plus.lowerBound]) }
                function = function.replacingOccurrences(of: "specialized ", with: "")
            }
            return Frame(function: function, file: file, line: number)
        }
        return nil
    }

    /// The message and the frame together: what tells two crashes apart.
    public static func site(in text: String) -> String? {
        switch (message(in: text), frame(in: text)) {
        case (let message?, let frame?): return "\(message) in \(frame)"
        case (let message?, nil): return message
        case (nil, let frame?): return "in \(frame)"
        default: return nil
        }
    }
}
