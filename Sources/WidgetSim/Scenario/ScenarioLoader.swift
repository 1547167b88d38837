import Foundation

/// Loads scenario files.
public enum ScenarioLoader {
    /// The largest scenario file accepted, so a wrong path to a huge file fails fast.
    public static let maximumFileBytes = 16 * 1024 * 1024

    /// Reads and decodes the scenario at `path`.
    public static func load(path: String, catalog: SwiftCatalog = .builtIn) throws(ScenarioError) -> SimulationSetup {
        try loadDocument(path: path, catalog: catalog).base
    }

    /// Reads and decodes the scenario at `path` with its variants.
    public static func loadDocument(path: String, catalog: SwiftCatalog = .builtIn) throws(ScenarioError) -> ScenarioDocument {
        try decodeDocument(try readFile(path), file: path, catalog: catalog)
    }

    /// Decodes scenario text; `file` names it in errors.
    public static func decode(_ text: String, file: String, catalog: SwiftCatalog = .builtIn) throws(ScenarioError) -> SimulationSetup {
        try decodeDocument(Array(text.utf8), file: file, catalog: catalog).base
    }

    /// Decodes scenario text with its variants; `file` names it in errors.
    public static func decodeDocument(_ text: String, file: String, catalog: SwiftCatalog = .builtIn) throws(ScenarioError) -> ScenarioDocument {
        try decodeDocument(Array(text.utf8), file: file, catalog: catalog)
    }

    static func decodeDocument(_ bytes: [UInt8], file: String, catalog: SwiftCatalog) throws(ScenarioError) -> ScenarioDocument {
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw .malformedJSON(file: file, line: error.position.line, column: error.position.column, reason: error.message)
        }
        var document = try VariantApplier(file: file, catalog: catalog).decodeDocument(root)
        document.fingerprint = StreamSeed.fnv1a(bytes)
        return document
    }

    static func readFile(_ path: String) throws(ScenarioError) -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .fileNotFound(file: path, suggestion: suggestion(for: path))
        }
        guard !isDirectory.boolValue else { throw .unreadable(file: path, reason: "it is a directory") }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .unreadable(file: path, reason: "permission denied or not a regular file")
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: maximumFileBytes + 1) ?? Data()
        } catch {
            throw .unreadable(file: path, reason: "\(error.localizedDescription)")
        }
        guard data.count <= maximumFileBytes else {
            throw .unreadable(file: path, reason: "larger than \(maximumFileBytes / 1024 / 1024) MiB; a scenario is a small JSON file")
        }
        return [UInt8](data)
    }

    /// A file next to `path` whose name is close, for "did you mean".
    static func suggestion(for path: String) -> String? {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return nil }
        let candidates = names.filter { $0.hasSuffix(".json") }.sorted()
        guard let match = Suggestion.nearest(to: url.lastPathComponent, among: candidates) else { return nil }
        return url.deletingLastPathComponent().appendingPathComponent(match).relativePath
    }

    /// The scenario files in `directory`, by name (without ".json"), sorted.
    public static func scenarioNames(in directory: String) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        return names.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }
}
