import Foundation

/// Every entry of a directory tree and the bytes of every file, by path
/// relative to the tree's root.
///
/// Promised: two images are equal exactly when the trees hold the same
/// paths, each of the same kind, and every file the same bytes; nothing is
/// left out (hidden files, empty directories and symbolic links count).
///
/// Not promised: permissions, owners and times, which a report does not
/// promise either.
public struct DirectoryImage: Equatable, Sendable {
    public enum Entry: Equatable, Sendable {
        case directory
        case file(Data)
        case symbolicLink(String)
        /// A socket, a device, a fifo: never written by widgetsim.
        case other
    }

    public let entries: [String: Entry]

    /// Reads the tree at `path`; nil if nothing is there.
    public init?(path: String) throws {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        guard isDirectory.boolValue else {
            entries = ["": .file(try Data(contentsOf: URL(fileURLWithPath: path)))]
            return
        }
        var entries: [String: Entry] = [:]
        try Self.read(path, prefix: "", into: &entries)
        self.entries = entries
    }

    private static func read(_ directory: String, prefix: String, into entries: inout [String: Entry]) throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: directory).sorted() {
            let path = directory + "/" + name
            let relative = prefix + name
            let type = try FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType
            switch type {
            case .typeDirectory?:
                entries[relative] = .directory
                try read(path, prefix: relative + "/", into: &entries)
            case .typeRegular?:
                entries[relative] = .file(try Data(contentsOf: URL(fileURLWithPath: path)))
            case .typeSymbolicLink?:
                entries[relative] = .symbolicLink(try FileManager.default.destinationOfSymbolicLink(atPath: path))
            default:
                entries[relative] = .other
            }
        }
    }

    /// What `self` lacks, holds in excess, or holds differently, compared
    /// with `reference`.
    public func differences(from reference: DirectoryImage) -> DirectoryDifferences {
        DirectoryDifferences(
            missing: reference.entries.keys.filter { entries[$0] == nil }.sorted(),
            extra: entries.keys.filter { reference.entries[$0] == nil }.sorted(),
            changed: entries.keys.filter { reference.entries[$0] != nil && reference.entries[$0] != entries[$0] }.sorted())
    }

    /// The paths of the tree, sorted.
    public var paths: [String] { entries.keys.sorted() }
}

/// How one directory tree differs from another, path by path.
public struct DirectoryDifferences: Equatable, Sendable {
    public var missing: [String]
    public var extra: [String]
    public var changed: [String]

    public var isEmpty: Bool { missing.isEmpty && extra.isEmpty && changed.isEmpty }
    public var count: Int { missing.count + extra.count + changed.count }

    /// One line: "2 missing (a, b), 1 changed (c)", at most `limit` names a kind.
    public func summary(limit: Int = 4) -> String {
        guard !isEmpty else { return "identical" }
        func part(_ label: String, _ names: [String]) -> String? {
            guard !names.isEmpty else { return nil }
            let shown = names.prefix(limit).joined(separator: ", ") + (names.count > limit ? ", ..." : "")
            return "\(names.count) \(label) (\(shown))"
        }
        return [part("missing", missing), part("extra", extra), part("changed", changed)].compactMap { $0 }.joined(separator: ", ")
    }
}
