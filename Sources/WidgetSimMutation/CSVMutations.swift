import WidgetSim

/// Structured edits of a report's CSV file: numbers at their limits in any
/// column, values that belong to other columns, broken quoting, rows out of
/// order, too many or too few fields, and (rarely) a file of many rows.
struct CSVMutations {
    let corpus: MutationCorpus
    let scale: MutationScale
    /// Words a cell may be set to: a report's by default, a device log's for one.
    var vocabulary: [String]

    init(corpus: MutationCorpus, scale: MutationScale, vocabulary: [String]? = nil) {
        self.corpus = corpus
        self.scale = scale
        self.vocabulary = vocabulary ?? corpus.reportVocabulary
    }

    enum Operation {
        case cellNumber, columnNumber, cellVocabulary, cellTimestamp, extraField, missingField, quoting
        case shuffleRows, duplicateRows, deleteRows, header, onlyHeader
    }

    static let operations: [(weight: Int, value: Operation)] = [
        (30, .cellNumber), (10, .columnNumber), (12, .cellVocabulary), (6, .cellTimestamp), (5, .extraField),
        (5, .missingField), (6, .quoting), (6, .shuffleRows), (4, .duplicateRows), (4, .deleteRows), (3, .header),
        (1, .onlyHeader),
    ]

    func mutate(_ document: inout CSVDocument, file: String, random: inout RandomStream) -> MutationEdit {
        apply(random.weighted(Self.operations), to: &document, file: file, random: &random)
    }

    func apply(_ operation: Operation, to document: inout CSVDocument, file: String, random: inout RandomStream) -> MutationEdit {
        let columns = document.header.count
        guard document.dataRowCount > 0, columns > 0 else {
            // Nothing but a header (or nothing): only whole-row edits apply.
            document.records.append(Array(repeating: random.pick(MutationValues.cellNumbers), count: max(1, columns)))
            return MutationEdit("extraRow", "\(file): a row of one value added to an empty table")
        }
        func randomRow() -> Int { 1 + random.nextInt(below: document.dataRowCount) }
        func column(preferring type: CSVDocument.ColumnType) -> Int {
            let typed = (0..<columns).filter { document.columnType($0) == type }
            return !typed.isEmpty && random.nextBool(probability: 0.75) ? random.pick(typed) : random.nextInt(below: columns)
        }
        func set(_ row: Int, _ column: Int, _ value: String) {
            while document.records[row].count <= column { document.records[row].append("") }
            document.records[row][column] = value
        }
        func name(_ column: Int) -> String { column < document.header.count ? document.header[column] : "column \(column + 1)" }

        switch operation {
        case .cellNumber:
            let (row, column) = (randomRow(), column(preferring: .number))
            let value = random.nextBool(probability: 0.25) ? random.pick(MutationValues.nearIntMax) : random.pick(MutationValues.cellNumbers)
            set(row, column, value)
            return MutationEdit("cellNumber", "\(file):\(row + 1) \(name(column)) -> \(ScenarioMutations.quoted(value))")
        case .columnNumber:
            let column = column(preferring: .number)
            let value = random.nextBool(probability: 0.4) ? random.pick(MutationValues.nearIntMax) : random.pick(MutationValues.cellNumbers)
            for row in 1..<document.records.count { set(row, column, value) }
            return MutationEdit("columnNumber", "\(file): every \(name(column)) -> \(ScenarioMutations.quoted(value))")
        case .cellVocabulary:
            let (row, column) = (randomRow(), random.nextInt(below: columns))
            let own = document.values(ofColumn: random.nextInt(below: columns))
            let value = random.nextBool(probability: 0.6) || own.isEmpty ? random.pick(vocabulary) : random.pick(own)
            set(row, column, value)
            return MutationEdit("cellVocabulary", "\(file):\(row + 1) \(name(column)) -> \(ScenarioMutations.quoted(value))")
        case .cellTimestamp:
            let (row, column) = (randomRow(), column(preferring: .timestamp))
            let value = random.pick(MutationValues.timestamps)
            set(row, column, value)
            return MutationEdit("cellTimestamp", "\(file):\(row + 1) \(name(column)) -> \(value)")
        case .extraField:
            let value = random.pick(MutationValues.cellNumbers)
            let everywhere = random.nextBool(probability: 0.3)
            let rows = everywhere ? Array(0..<document.records.count) : [random.nextBool(probability: 0.2) ? 0 : randomRow()]
            for row in rows { document.records[row].append(value) }
            return MutationEdit("extraField", "\(file): \(everywhere ? "every line" : "line \(rows[0] + 1)") has one more field")
        case .missingField:
            let everywhere = random.nextBool(probability: 0.3)
            let rows = everywhere ? Array(0..<document.records.count) : [random.nextBool(probability: 0.2) ? 0 : randomRow()]
            let field = random.nextInt(below: columns)
            for row in rows where field < document.records[row].count { document.records[row].remove(at: field) }
            return MutationEdit("missingField", "\(file): \(everywhere ? "every line" : "line \(rows[0] + 1)") lost \(name(field))")
        case .quoting:
            let (row, column) = (randomRow(), random.nextInt(below: columns))
            let old = column < document.records[row].count ? document.records[row][column] : ""
            let value = random.pick([
                "\"\(old)\"", "\"\(old)", "\(old)\"", "\"\(old),x\"", "\"\(old)\nx\"", "\"\(old)\"\"\"", "\"\"", "\"\(old)\"x",
                "\"\n\n\n\"", "x\"y", "\"\(old)\r\n\"",
            ])
            set(row, column, value)
            return MutationEdit("quoting", "\(file):\(row + 1) \(name(column)) -> \(ScenarioMutations.quoted(value))")
        case .shuffleRows:
            var rows = Array(document.records.dropFirst())
            let how = random.nextInt(below: 4)
            switch how {
            case 0:
                rows.swapAt(random.nextInt(below: rows.count), random.nextInt(below: rows.count))
            case 1:
                rows.reverse()
            case 2:
                // Fisher–Yates with the mutant's own stream, so the order is reproducible.
                for index in stride(from: rows.count - 1, to: 0, by: -1) { rows.swapAt(index, random.nextInt(below: index + 1)) }
            default:
                rows.insert(rows.removeLast(), at: 0)
            }
            document.records = [document.header] + rows
            return MutationEdit("shuffleRows", "\(file): rows \(["two swapped", "reversed", "shuffled", "last moved first"][how])")
        case .duplicateRows:
            let row = randomRow()
            let copies = random.pick([1, 1, 2, 100])
            document.records.insert(contentsOf: Array(repeating: document.records[row], count: copies), at: row)
            return MutationEdit("duplicateRows", "\(file):\(row + 1) repeated \(copies) more time(s)")
        case .deleteRows:
            let row = randomRow()
            let count = min(document.records.count - row, random.pick([1, 1, 2, 10]))
            document.records.removeSubrange(row..<(row + count))
            return MutationEdit("deleteRows", "\(file): \(count) row(s) removed from line \(row + 1)")
        case .header:
            let how = random.nextInt(below: 5)
            switch how {
            case 0: document.records[0][random.nextInt(below: columns)] += random.pick(["_", " ", "\u{FEFF}", "X"])
            case 1: document.records[0].swapAt(random.nextInt(below: columns), random.nextInt(below: columns))
            case 2: document.records.insert(document.header, at: 1)
            case 3: document.records.removeFirst()
            default: document.records[0] = document.records[0].map { $0.uppercased() }
            }
            return MutationEdit("header", "\(file): header \(["renamed a column", "swapped two columns", "repeated", "removed", "upper-cased"][how])")
        case .onlyHeader:
            document.records = [document.header]
            return MutationEdit("onlyHeader", "\(file): every data row removed")
        }
    }

    /// The rare edit that makes the file big: the rows repeated, their
    /// seconds shifted so they stay in time order, as a long real log would be.
    func mutateExpensively(_ document: inout CSVDocument, file: String, random: inout RandomStream) -> MutationEdit {
        let rows = Array(document.records.dropFirst())
        if rows.isEmpty || random.nextBool(probability: 0.2) {
            let field = String(repeating: random.pick(["1", "a", "\""]), count: scale.longStringBytes * 8)
            document.records.append([field])
            return MutationEdit("hugeField", "\(file): a field of \(field.utf8.count) bytes", expensive: true)
        }
        let secondsColumn = document.columnType(0) == .number ? 0 : nil
        let first = rows.first?.first.flatMap { Int($0) } ?? 0
        let last = rows.last?.first.flatMap { Int($0) } ?? 0
        let period = max(1, last &- first &+ 1)
        var tail: [UInt8] = []
        tail.reserveCapacity(scale.hugeCSVRows * (document.rendered.count / max(1, document.records.count) + 8))
        for index in 0..<scale.hugeCSVRows {
            var row = rows[index % rows.count]
            if let secondsColumn, secondsColumn < row.count, let seconds = Int(row[secondsColumn]) {
                row[secondsColumn] = String(seconds &+ (index / rows.count) &* period)
            }
            tail += row.joined(separator: ",").utf8
            tail.append(0x0A)
        }
        document.records = [document.header]
        document.tail = tail
        return MutationEdit("hugeFile", "\(file): \(scale.hugeCSVRows) rows", expensive: true)
    }
}
