/// A scenario file: the base setup and the variants it declares for comparison.
public struct ScenarioDocument: Sendable {
    public var base: SimulationSetup
    /// What comparisons call the scenario as written ("base" unless the file names it).
    public var baseName = "base"
    public var variants: [Variant]
    /// A hash of the scenario file's bytes (FNV-1a), naming exactly this
    /// content (and the parameters file's, when one was applied).
    public var fingerprint: UInt64 = 0
    /// The parameters file merged into the scheduler, if any.
    public var parameters: ParametersFile?
    /// What the file says that is valid but probably not meant, in file
    /// order: the scenario's own, then each variant's that the scenario as
    /// written does not already have.
    public var warnings: [ScenarioWarning] = []

    /// One alternative to compare against the base: the base with some
    /// provider, truth, user or scheduler settings changed.
    public struct Variant: Sendable {
        public var name: String
        public var description: String
        public var setup: SimulationSetup
        /// The scheduler fields the variant sets itself: what it compares, so
        /// a sensitivity sweep leaves them as the variant has them.
        public var schedulerFields: [String] = []

        /// True when the variant sets its own budget model, which comparisons
        /// then keep in every section rather than replace.
        public var setsBudgetModel: Bool { schedulerFields.contains("budgetModel") }
    }

    /// The base (named `baseName`) followed by every variant.
    public var all: [Variant] {
        [Variant(name: baseName, description: "the scenario as written", setup: base)] + variants
    }
}

/// Applies a scenario's `variants` to its JSON before decoding, so a variant
/// is validated exactly like the base.
///
/// A variant is `{"name", "description", "widgets", "scheduler", "user",
/// "provider", "truth"}`. `scheduler` is merged into the scenario's scheduler,
/// `user` into every device's user, and `provider` and `truth` into every
/// widget's (or only those whose ids `widgets` lists), as JSON merge patches
/// (RFC 7396): fields are replaced or added, and `null` removes one.
struct VariantApplier {
    static let variantFields = ["name", "description", "widgets", "scheduler", "user", "provider", "truth", "script"]

    let file: String
    var catalog: SwiftCatalog = .builtIn
    /// The parameters file already merged into the JSON, whose values' errors are its own.
    var parameters: ParametersFile? = nil

    func decodeDocument(_ root: JSONNode) throws(ScenarioError) -> ScenarioDocument {
        let baseWarnings = ScenarioWarningLog()
        // One set of kind hints for the whole file (see `KindHints`).
        let kindHints = KindHints()
        var baseDecoder = ScenarioDecoder(file: file, catalog: catalog)
        baseDecoder.warnings = baseWarnings
        baseDecoder.kindHints = kindHints
        let base: SimulationSetup
        do {
            base = try baseDecoder.decode(root)
        } catch {
            throw claimed(error, in: root)
        }
        var warnings = baseWarnings.warnings
        let top = try ValueReader(node: root, path: "", file: file).object()
        let baseName = try top.optional("baseName")?.identifier() ?? "base"
        guard let list = top.optional("variants") else {
            var document = ScenarioDocument(base: base, baseName: baseName, variants: [])
            document.warnings = warnings
            return document
        }
        let entries = try list.array()
        guard entries.count <= ScenarioLimits.maximumVariants else {
            throw list.invalid("\(entries.count) variants", allowed: "at most \(ScenarioLimits.maximumVariants)")
        }
        var variants: [ScenarioDocument.Variant] = []
        // Variants do not depend on each other: each one's errors are reported.
        var errors = ScenarioErrorList()
        // Every name read, whether its variant decoded or not: a second
        // variant of a name whose first has an error is still a duplicate.
        var names: [String] = []
        for entry in entries {
            errors.collect { () throws(ScenarioError) in
                let object = try entry.object()
                // The name is claimed before anything else can fail, so that a
                // second variant of that name is a duplicate all the same.
                if let nameValue = object.optional("name"), let name = try? nameValue.identifier() {
                    guard name != baseName, !names.contains(name) else {
                        throw nameValue.invalid("duplicate variant name \"\(name)\"", allowed: "names unique within the scenario, other than the baseName \"\(baseName)\"")
                    }
                    names.append(name)
                }
                // Said plainly: every variant is ranked on the same hours.
                if let measured = object.optional("measureDuring") {
                    throw measured.invalid(
                        "the measured hours are the scenario's, the same for every variant, so that they are ranked on the same views",
                        allowed: "\"measureDuring\" at the top level of the scenario")
                }
                try object.rejectUnknownFields(VariantApplier.variantFields)
                let name = try object.required("name").identifier()
                let description = try object.optional("description")?.string() ?? ""
                let devices = base.devices + (base.fleet.map { [$0.template] } ?? [])
                let patched = try apply(object, to: root, widgetIDs: devices.flatMap { $0.widgets.map(\.id) })
                do throws(ScenarioError) {
                    let variantWarnings = ScenarioWarningLog()
                    var decoder = ScenarioDecoder(file: file, catalog: catalog)
                    decoder.warnings = variantWarnings
                    decoder.kindHints = kindHints
                    let setup = try decoder.decode(patched)
                    // The variant decodes the whole scenario again: keep only what its patch brings.
                    for var warning in variantWarnings.warnings where !baseWarnings.contains(warning) {
                        warning.variant = name
                        warnings.append(warning)
                    }
                    var fields: [String] = []
                    if let patch = object.optional("scheduler") {
                        let patchFields = try patch.object()
                        fields = patchFields.members.map(\.key)
                        // A variant's scheduler settings apply over a parameters
                        // file's: a calibrated value the variant also sets never
                        // reaches its runs, and nothing said so. An object in both
                        // (a distribution, `dailyBudget`) merges member by member
                        // (RFC 7396): only the members both set are the variant's alone.
                        if let parameters, case .object(let given) = parameters.scheduler.value {
                            for key in fields {
                                guard let value = patchFields.optional(key), let fileValue = given.value(of: key) else { continue }
                                var overridden = [value]
                                if case .object = value.node.value, case .object(let fileMembers) = fileValue.value {
                                    let members = try value.object()
                                    overridden = fileMembers.compactMap { members.optional($0.key) }
                                }
                                for member in overridden {
                                    warnings.append(ScenarioWarning(
                                        file: file, field: member.path, line: member.position.line, column: member.position.column,
                                        message: "the variant sets it itself, and a variant's settings apply over --parameters: its runs use this value, not the one in \(parameters.path)",
                                        variant: name))
                                }
                            }
                        }
                    }
                    variants.append(ScenarioDocument.Variant(name: name, description: description, setup: setup, schedulerFields: fields))
                } catch {
                    throw .inVariant(name: name, error: claimed(error, in: patched))
                }
            }
        }
        try errors.throwIfAny()
        var document = ScenarioDocument(base: base, baseName: baseName, variants: variants)
        document.warnings = warnings
        return document
    }

    /// `error` named in the parameters file when it is about a value from there.
    private func claimed(_ error: ScenarioError, in root: JSONNode) -> ScenarioError {
        parameters?.claiming(error, in: root, scenarioFile: file) ?? error
    }

    /// The scenario's JSON with the variant's patches applied and `variants` removed.
    func apply(_ variant: ObjectReader, to root: JSONNode, widgetIDs: [String]) throws(ScenarioError) -> JSONNode {
        var only: [String]?
        if let list = variant.optional("widgets") {
            only = []
            for value in try ScenarioDecoder.nonEmpty(list, leaveOut: "every widget") {
                let id = try value.string()
                guard widgetIDs.contains(id) else {
                    throw value.invalid("no widget with id \"\(id)\"", allowed: widgetIDs.map { "\"\($0)\"" }.joined(separator: ", "))
                }
                only!.append(id)
            }
        }
        for key in ["scheduler", "user", "provider", "truth"] {
            guard let patch = variant.optional(key) else { continue }
            guard case .object = patch.node.value else { throw patch.wrongType("an object (a merge patch)") }
        }
        guard case .object(var members) = root.value else { return root }
        members.removeAll { $0.key == "variants" }
        if let patch = variant.optional("scheduler")?.node {
            members.set("scheduler", to: JSONNode.merge(members.value(of: "scheduler"), patch), at: patch.position)
        }
        if let index = members.firstIndex(where: { $0.key == "devices" }), case .array(var devices) = members[index].value.value {
            for deviceIndex in devices.indices {
                devices[deviceIndex] = patchDevice(devices[deviceIndex], variant: variant, only: only)
            }
            members[index].value.value = .array(devices)
        }
        // A fleet's variants patch its device template.
        if let index = members.firstIndex(where: { $0.key == "fleet" }), case .object(var fleet) = members[index].value.value,
           let templateIndex = fleet.firstIndex(where: { $0.key == "device" }) {
            fleet[templateIndex].value = patchDevice(fleet[templateIndex].value, variant: variant, only: only)
            members[index].value.value = .object(fleet)
        }
        return JSONNode(value: .object(members), position: root.position)
    }

    private func patchDevice(_ device: JSONNode, variant: ObjectReader, only: [String]?) -> JSONNode {
        guard case .object(var members) = device.value else { return device }
        if let patch = variant.optional("user")?.node {
            members.set("user", to: JSONNode.merge(members.value(of: "user"), patch), at: patch.position)
        }
        // A script is a list, so a variant's replaces the device's whole, as
        // a merge patch replaces any array; `null` removes it. What a user
        // does (a push on every goal, an app session) can then belong to one
        // policy alone.
        if let script = variant.optional("script")?.node {
            if case .null = script.value {
                members.removeAll { $0.key == "script" }
            } else {
                members.set("script", to: script, at: script.position)
            }
        }
        if let index = members.firstIndex(where: { $0.key == "widgets" }), case .array(var widgets) = members[index].value.value {
            for widgetIndex in widgets.indices {
                guard case .object(var fields) = widgets[widgetIndex].value else { continue }
                if let only, case .string(let id)? = fields.value(of: "id")?.value, !only.contains(id) { continue }
                for key in ["provider", "truth"] {
                    if let patch = variant.optional(key)?.node {
                        fields.set(key, to: JSONNode.merge(fields.value(of: key), patch), at: patch.position)
                    }
                }
                widgets[widgetIndex].value = .object(fields)
            }
            members[index].value.value = .array(widgets)
        }
        return JSONNode(value: .object(members), position: device.position)
    }
}

extension JSONNode {
    /// `patch` merged into `target` as an RFC 7396 merge patch.
    static func merge(_ target: JSONNode?, _ patch: JSONNode) -> JSONNode {
        guard case .object(let patchMembers) = patch.value else { return patch }
        var members: [Member] = []
        if let target, case .object(let existing) = target.value { members = existing }
        for member in patchMembers {
            if case .null = member.value.value {
                members.removeAll { $0.key == member.key }
            } else {
                members.set(member.key, to: merge(members.value(of: member.key), member.value), at: member.keyPosition)
            }
        }
        // A target that is not an object is replaced whole, so the result is the patch's.
        guard let target, case .object = target.value else { return JSONNode(value: .object(members), position: patch.position) }
        return JSONNode(value: .object(members), position: target.position)
    }
}

extension Array where Element == JSONNode.Member {
    func value(of key: String) -> JSONNode? {
        first { $0.key == key }?.value
    }

    mutating func set(_ key: String, to value: JSONNode, at position: SourcePosition) {
        if let index = firstIndex(where: { $0.key == key }) {
            self[index].value = value
        } else {
            append(JSONNode.Member(key: key, keyPosition: position, value: value))
        }
    }
}
