import Foundation
import Testing

/// The library's folders are floors, and arrows point down (STYLE rule 11):
/// code on one floor never names a type declared on a floor above it, or on
/// a sibling floor beside it.
@Suite("Architecture")
struct ArchitectureTests {
    /// The floors, lowest first. Folders on the same floor are siblings.
    static let floors: [[String]] = [
        ["Support"],
        ["Engine"],
        ["WidgetKit"],
        ["Providers"],
        ["Scheduler"],
        ["Behaviour"],
        ["Simulation"],
        ["Scenario"],
        ["Calibration", "Comparison", "Fleet"],
        ["Reports"],
        ["Check"],
    ]

    static let library = Paths.packageRoot.appendingPathComponent("Sources/WidgetSim")

    /// Every Swift file under `folder`, recursively, sorted.
    static func files(in folder: String) -> [URL] {
        let root = library.appendingPathComponent(folder)
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
    }

    /// The source without comments and string literals, so only code is read.
    static func code(_ text: String) -> String {
        var out = ""
        var characters = Array(text)
        characters.append("\n")
        var index = 0
        func at(_ offset: Int) -> Character? { index + offset < characters.count ? characters[index + offset] : nil }
        while index < characters.count {
            let character = characters[index]
            if character == "/" && at(1) == "/" {
                while index < characters.count && characters[index] != "\n" { index += 1 }
                continue
            }
            if character == "/" && at(1) == "*" {
                index += 2
                while index < characters.count && !(characters[index] == "*" && at(1) == "/") { index += 1 }
                index += 2
                continue
            }
            if character == "\"" {
                let triple = at(1) == "\"" && at(2) == "\""
                index += triple ? 3 : 1
                while index < characters.count {
                    if characters[index] == "\\" { index += 2; continue }
                    if triple ? (characters[index] == "\"" && at(1) == "\"" && at(2) == "\"") : characters[index] == "\"" { break }
                    index += 1
                }
                index += triple ? 3 : 1
                out += "\"\""
                continue
            }
            out.append(character)
            index += 1
        }
        return out
    }

    /// Names of the types a file declares at the top level.
    static func declaredTypes(_ code: String) -> [String] {
        let pattern = try! NSRegularExpression(
            pattern: #"^(?:(?:public|internal|fileprivate|private|final|indirect)\s+)*(?:struct|enum|class|protocol|actor|typealias)\s+([A-Za-z_][A-Za-z0-9_]*)"#,
            options: [.anchorsMatchLines])
        let range = NSRange(code.startIndex..., in: code)
        return pattern.matches(in: code, range: range).map { String(code[Range($0.range(at: 1), in: code)!]) }
    }

    /// Identifiers the code names as types or values, not as members after a dot.
    static func referencedNames(_ code: String) -> Set<String> {
        let pattern = try! NSRegularExpression(pattern: #"(?<![.\w])[A-Z_][A-Za-z0-9_]*"#)
        let range = NSRange(code.startIndex..., in: code)
        return Set(pattern.matches(in: code, range: range).map { String(code[Range($0.range, in: code)!]) })
    }

    @Test func everyLibraryFolderIsOnAFloor() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.library.path)
            .filter { !$0.hasSuffix(".docc") && !$0.hasPrefix(".") }.sorted()
        #expect(folders == Self.floors.flatMap { $0 }.sorted())
    }

    @Test func codeNeverNamesATypeFromAFloorAboveOrBesideIt() throws {
        var declaredOn: [String: (floor: Int, folder: String)] = [:]
        for (floor, folders) in Self.floors.enumerated() {
            for folder in folders {
                for file in Self.files(in: folder) {
                    for name in Self.declaredTypes(Self.code(try String(contentsOf: file, encoding: .utf8))) {
                        declaredOn[name] = (floor, folder)
                    }
                }
            }
        }
        var violations: [String] = []
        for (floor, folders) in Self.floors.enumerated() {
            for folder in folders {
                for file in Self.files(in: folder) {
                    let code = Self.code(try String(contentsOf: file, encoding: .utf8))
                    for name in Self.referencedNames(code).sorted() {
                        guard let home = declaredOn[name] else { continue }
                        if home.floor > floor || (home.floor == floor && home.folder != folder) {
                            violations.append("\(folder)/\(file.lastPathComponent) names \(name), declared in \(home.folder)/")
                        }
                    }
                }
            }
        }
        #expect(violations == [], "arrows must point down: \(violations.joined(separator: "; "))")
    }

    /// The check above must be able to fail: an upward reference is caught.
    @Test func anUpwardReferenceIsCaught() {
        let lower = Self.code("struct Low { var x: High } // High is fine in a comment\nlet s = \"High\"")
        #expect(Self.referencedNames(lower).contains("High"))
        #expect(!Self.referencedNames(Self.code("let s = \"High\" // High")).contains("High"))
        #expect(Self.declaredTypes(Self.code("public final class High {}\nstruct Low {}")) == ["High", "Low"])
    }
}
