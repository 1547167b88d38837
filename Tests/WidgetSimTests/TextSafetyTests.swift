import Foundation
import Testing
@testable import WidgetSim

/// Names and descriptions reach CSV, markdown, SVG and the terminal intact
/// and harmless: quoted where CSV needs it, escaped where markdown or a
/// terminal would act on them.
@Suite("Text safety")
struct TextSafetyTests {
    /// Random text from the characters that break naive writers.
    static func awkwardText(_ random: inout RandomStream) -> String {
        let alphabet: [String] = ["a", "Z", " ", ",", "\"", "\n", "\r\n", "|", "`", "\\", "é", "\u{1B}", "\t", "'", "<"]
        return (0..<random.nextInt(below: 12)).map { _ in alphabet[random.nextInt(below: alphabet.count)] }.joined()
    }

    @Test func csvFieldsWithQuotesCommasNewlinesPipesAndBackticksReadBackExactly() throws {
        var random = StreamSeed(11).stream()
        for _ in 0..<500 {
            let header = ["a", "b", "c"]
            let rows = (0..<3).map { _ in (0..<3).map { _ in Self.awkwardText(&random) } }
            var csv = CSVText(header: header)
            for row in rows { csv.append(row) }
            var reader = try CSVReader(csv.text, header: header)
            var read: [[String]] = []
            while let row = try reader.next() { read.append(row.fields) }
            // A carriage return outside quotes is dropped by the reader, so
            // fields that hold one are written quoted: they come back whole.
            #expect(read == rows, "\(csv.text.debugDescription)")
        }
    }

    @Test func controlCharactersAreShownNotSent() {
        #expect(DisplayText.visible("a\u{1B}[31mb\u{7}") == "a\\u{1B}[31mb\\u{7}")
        #expect(DisplayText.visible("line\nnext", keepingNewlines: true) == "line\nnext")
        #expect(DisplayText.visible("line\nnext") == "line\\u{A}next")
        #expect(DisplayText.visible("right\u{202E}to left") == "right\\u{202E}to left")
        // A line or paragraph separator breaks a line on a terminal, as a newline does.
        #expect(DisplayText.visible("one\u{2028}two\u{2029}") == "one\\u{2028}two\\u{2029}")
        #expect(DisplayText.visible("plain, with ümlauts and 日本語") == "plain, with ümlauts and 日本語")
    }

    @Test func aMarkdownCellCannotSplitItsRowOrItsTable() {
        var random = StreamSeed(12).stream()
        for _ in 0..<500 {
            let cell = DisplayText.markdownCell(Self.awkwardText(&random))
            #expect(!cell.contains("\n") && !cell.contains("\r"))
            // Every pipe is escaped.
            var previous: Character = " "
            for character in cell {
                if character == "|" { #expect(previous == "\\") }
                previous = character
            }
            #expect(!cell.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        }
    }

    @Test func aDescriptionWithEscapeSequencesReachesNoReportRaw() throws {
        var setup = try ScenarioLoader.load(path: Paths.scenario("weather"))
        setup.days = 1
        setup.description = "Weather \u{1B}[31mRED\u{1B}[0m | a bell \u{7}\nand a second line"
        let files = ReportWriter(setup: setup, collector: try Simulation.run(setup)).files()
        for file in files {
            #expect(!file.contents.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{7}" }, "\(file.name)")
        }
        let summary = try #require(files.first { $0.name == "summary.md" })
        #expect(summary.contents.contains("> Weather \\u{1B}[31mRED\\u{1B}[0m | a bell \\u{7} and a second line\n"))
    }
}
