/// A parameters file: scheduler settings measured or chosen apart from any
/// scenario (by `widgetsim calibrate` from a device's log, say), applied to
/// any scenario with `--parameters <file>`.
///
/// The file is `{"description": "...", "scheduler": {...}}`, where
/// `scheduler` holds the same fields, units and ranges as a scenario's
/// `scheduler`. It is validated on its own, so an error names the parameters
/// file, and then merged into the scenario's `scheduler` as a JSON merge
/// patch (RFC 7396) before the scenario is decoded: the file's values
/// replace the scenario's, and each variant's own scheduler changes still
/// apply on top.
public struct ParametersFile: Sendable {
    static let fields = ["description", "scheduler"]

    /// Where the file was read from, for errors and report headers.
    public var path: String
    public var description: String
    /// The scheduler block as written, kept to merge into scenarios.
    let scheduler: JSONNode
    /// The parameters alone, over the defaults.
    public var parameters: SchedulerParameters
    /// The scheduler fields the file sets, in file order. (A `null` is
    /// refused like any value of the wrong type: a field the file leaves out
    /// keeps the scenario's value.)
    public var fields: [String] {
        guard case .object(let members) = scheduler.value else { return [] }
        return members.map(\.key)
    }
    /// A hash of the file's bytes, folded into the fingerprint of every
    /// scenario it is applied to.
    public var fingerprint: UInt64

    /// Reads and validates the parameters file at `path`.
    public static func load(path: String) throws(ScenarioError) -> ParametersFile {
        let bytes = try ScenarioLoader.readFile(path, kind: "parameters file")
        return try decode(bytes, file: path)
    }

    static func decode(_ bytes: [UInt8], file: String) throws(ScenarioError) -> ParametersFile {
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            // The other kind of parameters file: a report's parameters.csv.
            if bytes.starts(with: Array("parameter,".utf8)) {
                throw .badContents(
                    file: file,
                    reason: "this is a report's parameters.csv; --parameters takes the JSON parameters file that 'widgetsim calibrate' writes ({\"scheduler\": {...}}), and 'widgetsim check --parameters' takes the CSV")
            }
            throw .malformedJSON(file: file, line: error.position.line, column: error.position.column, reason: error.message)
        }
        let top = try ValueReader(node: root, path: "", file: file).object()
        try top.rejectUnknownFields(fields)
        let description = try top.optional("description")?.string() ?? ""
        let scheduler = try top.required("scheduler")
        let parameters = try ScenarioDecoder(file: file).decodeScheduler(scheduler)
        return ParametersFile(path: file, description: description, scheduler: scheduler.node, parameters: parameters, fingerprint: StreamSeed.fnv1a(bytes))
    }

    /// The scenario's JSON with this file's scheduler merged into its own.
    func applied(to root: JSONNode) -> JSONNode {
        guard case .object(var members) = root.value else { return root }
        members.set("scheduler", to: JSONNode.merge(members.value(of: "scheduler"), scheduler), at: scheduler.position)
        return JSONNode(value: .object(members), position: root.position)
    }

    /// `warning` as this file's own when it is about a value this file set:
    /// merged into the scenario, the value keeps its line and column here,
    /// but the scenario's decoder names the scenario.
    func claiming(_ warning: ScenarioWarning) -> ScenarioWarning {
        var components = warning.field.split(separator: ".", omittingEmptySubsequences: false)
        guard components.first == "scheduler" else { return warning }
        components.removeFirst()
        var node = scheduler
        for key in components {
            guard case .object(let members) = node.value, let value = members.value(of: String(key)) else { return warning }
            node = value
        }
        guard node.position == SourcePosition(line: warning.line, column: warning.column) else { return warning }
        var claimed = warning
        claimed.file = path
        return claimed
    }

    /// `error` as this file's own when it is about a value this file set, in
    /// `root` (the scenario's JSON this file was merged into, as decoded):
    /// a value this file wrote whole keeps its line and column here, and the
    /// error names this file there; an object merged from both files (the
    /// scenario's `dailyBudget` with this file's `min`, say) keeps the
    /// scenario's position, so the error names this file at its own half and
    /// says where the scenario's half is. Errors about anything else are
    /// returned as they are.
    func claiming(_ error: ScenarioError, in root: JSONNode, scenarioFile: String) -> ScenarioError {
        if case .inVariant(let name, let inner) = error {
            return .inVariant(name: name, error: claiming(inner, in: root, scenarioFile: scenarioFile))
        }
        if case .several(let errors, let omitted) = error {
            return .several(errors.map { claiming($0, in: root, scenarioFile: scenarioFile) }, omitted: omitted)
        }
        guard let location = error.location else { return error }
        var components = location.field.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard components.first == "scheduler" else { return error }
        guard let decoded = root.descendant(at: components) else { return error }
        components.removeFirst()
        guard let written = scheduler.descendant(at: components) else { return error }
        let errorPosition = SourcePosition(line: location.line, column: location.column)
        guard decoded.position == errorPosition else { return error }
        // Positions alone do not tell the files apart (a variant's value and
        // this file's may sit at the same line and column): the value must be
        // this file's own, written the same.
        if written.isCopy(of: decoded) {
            return error.relocated(file: path, at: written.position)
        }
        guard written.survives(in: decoded), case .invalidValue(_, let field, _, _, let reason, let allowed) = error else { return error }
        return .invalidValue(
            file: path, field: field, line: written.position.line, column: written.position.column,
            reason: "\(reason), merged into the scenario's value at \(scenarioFile):\(location.line):\(location.column)", allowed: allowed)
    }

    /// The text of a parameters file holding `parameters`' values of the
    /// fields named in `fields` (in the order of the scenario format).
    public static func render(_ parameters: SchedulerParameters, fields: [String], description: String) -> String {
        render([(parameters, fields)], description: description)
    }

    /// The text of a parameters file holding, for each source in turn, its
    /// parameters' values of the fields it names; a field named by two
    /// sources takes the later one's value.
    public static func render(_ sources: [(parameters: SchedulerParameters, fields: [String])], description: String) -> String {
        var lines: [String] = []
        for field in ScenarioDecoder.schedulerFields {
            guard let source = sources.last(where: { $0.fields.contains(field) }),
                  let value = SchedulerParameters.jsonValue(of: field, in: source.parameters) else { continue }
            lines.append("    \"\(field)\": \(value)")
        }
        let scheduler = lines.isEmpty ? "{}" : "{\n" + lines.joined(separator: ",\n") + "\n  }"
        return "{\n  \"description\": \"\(JSONText.escaped(description))\",\n  \"scheduler\": \(scheduler)\n}\n"
    }
}

extension JSONNode {
    /// The value at `path`, a field path split at its dots, or nil when
    /// a step is not a member of an object.
    fileprivate func descendant(at path: [String]) -> JSONNode? {
        var node = self
        for key in path {
            guard case .object(let members) = node.value, let value = members.value(of: key) else { return nil }
            node = value
        }
        return node
    }

    /// True when `other` is this value unchanged: written at the same place,
    /// the same way (a copy made by merging files, not another file's value
    /// that happens to sit at the same line and column).
    fileprivate func isCopy(of other: JSONNode) -> Bool {
        guard position == other.position else { return false }
        switch (value, other.value) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)), (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.isCopy(of: $1) }
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value.isCopy(of: $1.value) }
        default: return false
        }
    }

    /// True when some value of this merge patch is still in `merged`, at its
    /// own position: the patch helped make `merged` (a later patch, a
    /// variant's, may have replaced all of it).
    fileprivate func survives(in merged: JSONNode) -> Bool {
        guard case .object(let members) = value else { return isCopy(of: merged) }
        guard case .object(let mergedMembers) = merged.value else { return false }
        return members.contains { member in
            mergedMembers.value(of: member.key).map { member.value.survives(in: $0) } ?? false
        }
    }
}
