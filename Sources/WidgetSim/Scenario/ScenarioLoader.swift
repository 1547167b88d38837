import Foundation

/// Loads scenario files.
public enum ScenarioLoader {
    /// The largest scenario file accepted, so a wrong path to a huge file fails fast.
    public static let maximumFileBytes = 16 * 1024 * 1024

    /// Reads and decodes the scenario at `path`.
    public static func load(path: String, catalog: SwiftCatalog = .builtIn) throws(ScenarioError) -> SimulationSetup {
        try loadDocument(path: path, catalog: catalog).base
    }

    /// Reads and decodes the scenario at `path` with its variants, with
    /// `parameters` (a parameters file) merged into its scheduler.
    public static func loadDocument(path: String, catalog: SwiftCatalog = .builtIn, parameters: ParametersFile? = nil) throws(ScenarioError) -> ScenarioDocument {
        try decodeDocument(try readFile(path), file: path, catalog: catalog, parameters: parameters)
    }

    /// Decodes scenario text; `file` names it in errors.
    public static func decode(_ text: String, file: String, catalog: SwiftCatalog = .builtIn) throws(ScenarioError) -> SimulationSetup {
        try decodeDocument(Array(text.utf8), file: file, catalog: catalog).base
    }

    /// Decodes scenario text with its variants; `file` names it in errors.
    public static func decodeDocument(_ text: String, file: String, catalog: SwiftCatalog = .builtIn) throws(ScenarioError) -> ScenarioDocument {
        try decodeDocument(Array(text.utf8), file: file, catalog: catalog)
    }

    static func decodeDocument(_ bytes: [UInt8], file: String, catalog: SwiftCatalog, parameters: ParametersFile? = nil) throws(ScenarioError) -> ScenarioDocument {
        var root: JSONNode
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw .malformedJSON(file: file, line: error.position.line, column: error.position.column, reason: error.message)
        }
        if let parameters { root = parameters.applied(to: root) }
        var document = try VariantApplier(file: file, catalog: catalog, parameters: parameters).decodeDocument(root)
        document.fingerprint = StreamSeed.fnv1a(bytes)
        if let parameters {
            // Results depend on both files: partials of one may not merge with the other's.
            document.fingerprint = StreamSeed(document.fingerprint).derived(parameters.fingerprint).value
            document.parameters = parameters
            document.warnings = document.warnings.map(parameters.claiming)
        }
        return document
    }

    /// The bytes of the scenario or parameters file at `path`; `kind` names
    /// it in messages ("scenario file", "parameters file").
    static func readFile(_ path: String, kind: String = "scenario file") throws(ScenarioError) -> [UInt8] {
        let bytes: [UInt8]
        do {
            bytes = try InputFile.bytes(at: path, limit: maximumFileBytes)
        } catch {
            switch error {
            case .missing: throw .fileNotFound(file: path, suggestion: suggestion(for: path), kind: kind)
            case .notRegular(_, let kind): throw .unreadable(file: path, reason: "it is \(kind), not a regular file")
            case .tooLarge:
                throw .badContents(file: path, reason: "larger than \(InputFile.describe(bytes: maximumFileBytes)), the most a \(kind) may be")
            case .unreadable(_, let reason): throw .unreadable(file: path, reason: reason)
            case .notUTF8(_, let reason): throw .badContents(file: path, reason: reason)
            }
        }
        if let problem = InputFile.encodingProblem(bytes) { throw .badContents(file: path, reason: problem) }
        return bytes
    }

    /// A file next to `path` whose name is close, for "did you mean"; never
    /// the name given, which may be listed in its directory and still not
    /// open (a link to nowhere, or one removed since).
    static func suggestion(for path: String) -> String? {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return nil }
        let candidates = names.filter { $0.hasSuffix(".json") && $0 != url.lastPathComponent }.sorted()
        guard let match = Suggestion.nearest(to: url.lastPathComponent, among: candidates) else { return nil }
        return url.deletingLastPathComponent().appendingPathComponent(match).relativePath
    }

    /// The scenario files in `directory`, by name (without ".json"), sorted.
    public static func scenarioNames(in directory: String) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        return names.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }
}
