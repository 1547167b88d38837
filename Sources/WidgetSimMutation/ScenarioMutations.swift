import Foundation
import WidgetSim

/// Structured edits of a scenario's JSON tree: values at their limits, the
/// wrong types, missing and repeated fields, values from elsewhere in the
/// corpus, and (rarely) sizes that find quadratic and memory-hungry code.
struct ScenarioMutations {
    let corpus: MutationCorpus
    let scale: MutationScale

    enum Operation {
        case replaceNumber, nudgeNumber, replaceString, rawStringLiteral, renameKey, changeType
        case deleteMember, duplicateKey, insertMember, deleteElement, duplicateElement, graft
        case deepNesting, longString
    }

    enum ExpensiveOperation: CaseIterable {
        case hugeArray, largestArray, hugeObject, deepestNesting
    }

    static let operations: [(weight: Int, value: Operation)] = [
        (20, .replaceNumber), (5, .nudgeNumber), (18, .replaceString), (2, .rawStringLiteral), (4, .renameKey),
        (12, .changeType), (8, .deleteMember), (5, .duplicateKey), (5, .insertMember), (4, .deleteElement),
        (5, .duplicateElement), (8, .graft), (2, .deepNesting), (1, .longString),
    ]

    /// One ordinary edit somewhere in `tree`.
    func mutate(_ tree: inout JSONTree, random: inout RandomStream) -> MutationEdit {
        apply(random.weighted(Self.operations), to: &tree, random: &random)
    }

    func apply(_ operation: Operation, to tree: inout JSONTree, random: inout RandomStream) -> MutationEdit {
        let paths = tree.allPaths()
        func candidates(_ matches: (JSONTree) -> Bool) -> [JSONTree.Path] {
            let found = paths.filter { matches(tree[$0]) }
            return found.isEmpty ? paths : found
        }
        switch operation {
        case .replaceNumber:
            let path = random.pick(candidates(\.isNumber))
            let text = random.pick(MutationValues.numbers)
            let place = tree.describe(path)
            tree[path] = MutationValues.invalidJSONNumbers.contains(text) ? .raw(text) : .number(text)
            return MutationEdit("replaceNumber", "\(place) -> \(Self.shorten(text))")
        case .nudgeNumber:
            let path = random.pick(candidates(\.isNumber))
            guard case .number(let text) = tree[path] else { return apply(.replaceNumber, to: &tree, random: &random) }
            let nudged: String
            if let whole = Int(text) {
                // Wrapping arithmetic: the mutator itself must never trap.
                nudged = String(random.pick([whole &+ 1, whole &- 1, 0 &- whole, whole &* 1_000, whole &* 86_400, whole &* 1_000_000_007]))
            } else {
                nudged = random.pick(["-" + text, text + "0", text + "e9", text + "e-9"])
            }
            tree[path] = .number(nudged)
            return MutationEdit("nudgeNumber", "\(tree.describe(path)): \(text) -> \(nudged)")
        case .replaceString:
            let path = random.pick(candidates(\.isString))
            let text = random.nextBool(probability: 0.3) ? random.pick(corpus.scenarioStrings) : random.pick(MutationValues.strings)
            tree[path] = .string(text)
            return MutationEdit("replaceString", "\(tree.describe(path)) -> \(Self.quoted(text))")
        case .rawStringLiteral:
            let path = random.pick(candidates(\.isString))
            let literal = random.pick(MutationValues.rawStringLiterals)
            tree[path] = .raw(literal)
            return MutationEdit("rawStringLiteral", "\(tree.describe(path)) -> \(Self.quoted(literal))")
        case .renameKey:
            let objects = objectPaths(tree, paths)
            guard let path = objects.isEmpty ? nil : random.pick(objects), case .object(var members) = tree[path] else {
                return apply(.changeType, to: &tree, random: &random)
            }
            let index = random.nextInt(below: members.count)
            let place = tree.describe(path + [index])
            members[index].key = renamed(members[index].key, random: &random)
            tree[path] = .object(members)
            return MutationEdit("renameKey", "\(place) -> key \(Self.quoted(members[index].key))")
        case .changeType:
            let path = random.pick(paths)
            let old = tree[path]
            let new = random.pick(Self.typeChanges(of: old).filter { $0.typeName != old.typeName || $0.isContainer })
            tree[path] = new
            return MutationEdit("changeType", "\(tree.describe(path)): \(old.typeName) -> \(Self.shorten(new.compact()))")
        case .deleteMember:
            let objects = objectPaths(tree, paths)
            guard let path = objects.isEmpty ? nil : random.pick(objects), case .object(var members) = tree[path] else {
                return apply(.changeType, to: &tree, random: &random)
            }
            let removed = members.remove(at: random.nextInt(below: members.count))
            tree[path] = .object(members)
            return MutationEdit("deleteMember", "\(tree.describe(path)): removed \(Self.quoted(removed.key))")
        case .duplicateKey:
            let objects = objectPaths(tree, paths)
            guard let path = objects.isEmpty ? nil : random.pick(objects), case .object(var members) = tree[path] else {
                return apply(.changeType, to: &tree, random: &random)
            }
            var copy = members[random.nextInt(below: members.count)]
            if random.nextBool(probability: 0.5) { copy.value = random.pick([.null, .number("1"), .string("x"), copy.value]) }
            members.insert(copy, at: random.nextInt(below: members.count + 1))
            tree[path] = .object(members)
            return MutationEdit("duplicateKey", "\(tree.describe(path)): \(Self.quoted(copy.key)) twice")
        case .insertMember:
            let objects = objectPaths(tree, paths)
            guard let path = objects.isEmpty ? nil : random.pick(objects), case .object(var members) = tree[path] else {
                return apply(.changeType, to: &tree, random: &random)
            }
            let key = random.nextBool(probability: 0.8) ? random.pick(corpus.scenarioKeys) : random.pick(MutationValues.strings)
            let value = randomCorpusNode(random: &random)
            members.insert(JSONMember(key: key, value: value), at: random.nextInt(below: members.count + 1))
            tree[path] = .object(members)
            return MutationEdit("insertMember", "\(tree.describe(path)): added \(Self.quoted(key)): \(Self.shorten(value.compact()))")
        case .deleteElement:
            let arrays = arrayPaths(tree, paths)
            guard let path = arrays.isEmpty ? nil : random.pick(arrays), case .array(var elements) = tree[path] else {
                return apply(.deleteMember, to: &tree, random: &random)
            }
            let removeAll = random.nextBool(probability: 0.3)
            if removeAll { elements.removeAll() } else { elements.remove(at: random.nextInt(below: elements.count)) }
            tree[path] = .array(elements)
            return MutationEdit("deleteElement", "\(tree.describe(path)): \(removeAll ? "emptied" : "one element removed")")
        case .duplicateElement:
            let arrays = arrayPaths(tree, paths)
            guard let path = arrays.isEmpty ? nil : random.pick(arrays), case .array(var elements) = tree[path] else {
                return apply(.duplicateKey, to: &tree, random: &random)
            }
            let index = random.nextInt(below: elements.count)
            let copies = random.pick([1, 1, 1, 2, 63, 64, 65, 199, 200, 201, 300])
            elements.insert(contentsOf: Array(repeating: elements[index], count: copies), at: index)
            tree[path] = .array(elements)
            return MutationEdit("duplicateElement", "\(tree.describe(path))[\(index)] repeated \(copies) more time(s)")
        case .graft:
            let path = random.pick(paths)
            let node = randomCorpusNode(random: &random)
            tree[path] = node
            return MutationEdit("graft", "\(tree.describe(path)) -> \(Self.shorten(node.compact()))")
        case .deepNesting:
            let path = random.pick(paths)
            let depth = random.pick([JSONParser.maximumDepth - 1, JSONParser.maximumDepth, JSONParser.maximumDepth + 1, scale.deepNesting])
            tree[path] = .raw(Self.nested(depth: depth, objects: random.nextBool(probability: 0.5)))
            return MutationEdit("deepNesting", "\(tree.describe(path)) -> \(depth) levels")
        case .longString:
            let path = random.pick(candidates(\.isString))
            let unit = random.pick(["a", "é", "😀", "1h", "\\"])
            tree[path] = .string(String(repeating: unit, count: max(1, scale.longStringBytes / unit.utf8.count)))
            return MutationEdit("longString", "\(tree.describe(path)) -> \(scale.longStringBytes) bytes of \(Self.quoted(unit))")
        }
    }

    /// One rare edit that makes the scenario megabytes long, or very deep.
    func mutateExpensively(_ tree: inout JSONTree, random: inout RandomStream) -> MutationEdit {
        let paths = tree.allPaths()
        let arrays = arrayPaths(tree, paths)
        // Replacing an array that the decoder walks element by element is
        // what finds per-element costs; anywhere else tests the parser alone.
        let path = !arrays.isEmpty && random.nextBool(probability: 0.6) ? random.pick(arrays) : random.pick(paths)
        let place = tree.describe(path)
        switch random.pick(ExpensiveOperation.allCases) {
        case .hugeArray:
            let element = random.nextBool(probability: 0.5) ? "0" : (tree[path].arrayFirst ?? randomCorpusNode(random: &random)).compact()
            // Kept under the 16 MiB a scenario may have, so the parser sees it all.
            let count = max(1, min(scale.hugeArrayElements, 12_000_000 / (element.utf8.count + 1)))
            tree[path] = .raw(Self.repeated(element, count: count))
            return MutationEdit("hugeArray", "\(place) -> \(count) × \(Self.shorten(element))", expensive: true)
        case .largestArray:
            tree[path] = .raw(Self.repeated("0", count: scale.largestArrayElements))
            return MutationEdit("largestArray", "\(place) -> \(scale.largestArrayElements) zeros", expensive: true)
        case .hugeObject:
            var text = "{"
            text.reserveCapacity(scale.hugeObjectKeys * 12)
            for index in 0..<scale.hugeObjectKeys {
                if index > 0 { text += "," }
                text += "\"k\(index)\":0"
            }
            text += "}"
            tree[path] = .raw(text)
            return MutationEdit("hugeObject", "\(place) -> an object of \(scale.hugeObjectKeys) distinct keys", expensive: true)
        case .deepestNesting:
            tree[path] = .raw(Self.nested(depth: scale.deepestNesting, objects: random.nextBool(probability: 0.5)))
            return MutationEdit("deepestNesting", "\(place) -> \(scale.deepestNesting) levels", expensive: true)
        }
    }

    // MARK: Helpers

    func objectPaths(_ tree: JSONTree, _ paths: [JSONTree.Path]) -> [JSONTree.Path] {
        paths.filter { if case .object(let members) = tree[$0] { return !members.isEmpty } else { return false } }
    }

    func arrayPaths(_ tree: JSONTree, _ paths: [JSONTree.Path]) -> [JSONTree.Path] {
        paths.filter { if case .array(let elements) = tree[$0] { return !elements.isEmpty } else { return false } }
    }

    /// A random node of a random scenario in the corpus: a value that is
    /// valid somewhere, so it reaches past the type checks.
    func randomCorpusNode(random: inout RandomStream) -> JSONTree {
        let donor = random.pick(corpus.scenarios).tree
        return donor[random.pick(donor.allPaths())]
    }

    func renamed(_ key: String, random: inout RandomStream) -> String {
        switch random.nextInt(below: 5) {
        case 0: return key.isEmpty ? "x" : String(key.dropLast())
        case 1: return key.uppercased()
        case 2: return key + "s"
        case 3: return random.pick(corpus.scenarioKeys)
        default: return random.pick(MutationValues.strings)
        }
    }

    /// Values of every other type, some holding the old value inside them.
    static func typeChanges(of node: JSONTree) -> [JSONTree] {
        [.null, .bool(true), .bool(false), .number("0"), .number("1"), .string("x"), .string(""),
         .array([]), .object([]), .array([node]), .object([JSONMember(key: "value", value: node)]), .string(node.compact())]
    }

    static func nested(depth: Int, objects: Bool) -> String {
        objects
            ? String(repeating: "{\"a\":", count: depth) + "0" + String(repeating: "}", count: depth)
            : String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    }

    static func repeated(_ element: String, count: Int) -> String {
        var text = "["
        text.reserveCapacity((element.utf8.count + 1) * count + 2)
        for index in 0..<count {
            if index > 0 { text += "," }
            text += element
        }
        return text + "]"
    }

    static func quoted(_ text: String) -> String {
        var literal = ""
        JSONTree.appendQuoted(shorten(text), to: &literal)
        return literal
    }

    /// Long values cut for descriptions, which must stay one readable line.
    static func shorten(_ text: String) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: " ")
        guard flat.count > 60 else { return flat }
        return String(flat.prefix(40)) + "…(\(text.utf8.count) bytes)"
    }
}

extension JSONTree {
    var isNumber: Bool {
        if case .number = self { return true }
        return false
    }

    var isString: Bool {
        if case .string = self { return true }
        return false
    }

    var arrayFirst: JSONTree? {
        if case .array(let elements) = self { return elements.first }
        return nil
    }
}
