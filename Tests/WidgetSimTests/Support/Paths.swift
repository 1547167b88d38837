import Foundation

/// Locations in the package, found from this file so tests work from any directory.
enum Paths {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func scenario(_ name: String) -> String {
        packageRoot.appendingPathComponent("Scenarios/\(name).json").path
    }

    /// The debug build of the `widgetsim` executable (`make test` builds it first).
    static var binary: URL {
        packageRoot.appendingPathComponent(".build/debug/widgetsim")
    }

    /// A new empty directory under the system's temporary directory.
    static func temporaryDirectory(_ label: String) -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("widgetsim-tests-\(label)-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
