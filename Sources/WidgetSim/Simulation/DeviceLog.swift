/// A device log: what a widget extension and its app can really record on an
/// iPhone, one CSV line per event, so a real phone's behaviour can be held
/// beside a simulated one (`simulate --device-log`), audited (`check
/// --device-log`) and used to estimate the unknowns (`calibrate`).
///
/// The columns:
///
/// | column | meaning |
/// |---|---|
/// | `time` | wall-clock time with its offset, `2026-03-02T07:15:03+01:00` (`Z`, fractional seconds accepted) |
/// | `event` | `timeline` (a `getTimeline` call), `foreground` (the app became active), `reloadTimelines`, `reloadAllTimelines` (the app called WidgetCenter), `intent` (an App Intent ran from a button on the widget) |
/// | `app` | the containing app's identifier, as the user chooses it (its bundle id, say) |
/// | `kind` | the widget kind: of the call for `timeline` and the widget for `intent`, the argument for `reloadTimelines`; empty otherwise |
/// | `family` | the family of a `timeline` call's or an `intent`'s widget (`systemSmall`...) |
/// | `configuration` | optional: what tells two widgets of one kind and family apart (an intent's city, say) |
/// | `policy` | `atEnd`, `after` or `never`: the policy the call returned |
/// | `reload_after` | when the timeline lets WidgetKit reload: the `after` date, or the last entry's date for `atEnd` with two or more entries; empty otherwise |
/// | `entries` | how many entries the call returned |
///
/// Views are not observable on iOS, so the format has none (F1). Which
/// reloads were budgeted is not observable either: readers infer it (a call
/// soon after its app's WidgetCenter call, or after an App Intent of its
/// widget, is taken as the app's, F17, F18).
public struct DeviceLog: Sendable {
    public static let header = ["time", "event", "app", "kind", "family", "configuration", "policy", "reload_after", "entries"]

    public enum Event: String, CaseIterable, Sendable {
        case timeline, foreground, reloadTimelines, reloadAllTimelines, intent
    }

    public struct Line: Equatable, Sendable {
        /// The 1-based line in the file (the header is line 1); 0 for a line not read from a file.
        public var line: Int
        public var time: OffsetTimestamp
        public var event: Event
        public var app: String
        public var kind: String
        public var family: String
        public var configuration: String
        public var policy: TimelinePolicyName?
        public var reloadAfter: OffsetTimestamp?
        public var entries: Int?

        public init(line: Int = 0, time: OffsetTimestamp, event: Event, app: String, kind: String = "", family: String = "",
                    configuration: String = "", policy: TimelinePolicyName? = nil, reloadAfter: OffsetTimestamp? = nil, entries: Int? = nil) {
            self.line = line
            self.time = time
            self.event = event
            self.app = app
            self.kind = kind
            self.family = family
            self.configuration = configuration
            self.policy = policy
            self.reloadAfter = reloadAfter
            self.entries = entries
        }

        /// Which widget a `timeline` line is about: kind, family and configuration.
        public var widgetKey: String {
            DeviceLog.widgetKey(kind: kind, family: family, configuration: configuration)
        }
    }

    /// The key a log gives a widget: kind, family and configuration.
    public static func widgetKey(kind: String, family: String, configuration: String) -> String {
        configuration.isEmpty ? "\(kind) \(family)" : "\(kind) \(family) \(configuration)"
    }

    /// The key of a scenario's widget, as its device's log would give it.
    public static func widgetKey(of widget: WidgetSetup) -> String {
        widgetKey(kind: widget.kind, family: widget.family.rawValue, configuration: widget.configuration ?? "")
    }

    public enum TimelinePolicyName: String, CaseIterable, Sendable {
        case atEnd, after, never
    }

    /// The lines, in file order (which is wall-clock order unless the clock jumped).
    public var lines: [Line]
    /// Where the log was read from, for messages.
    public var file: String

    public init(lines: [Line], file: String) {
        self.lines = lines
        self.file = file
    }

    /// The most entries a line may claim, and the longest text field: a
    /// provider that returns more is refused by WidgetKit anyway (F23).
    public static let maximumEntries = 1_000_000
    public static let maximumFieldBytes = 1_024
    /// A year of a busy phone is a few megabytes; these bound what a bad or
    /// hostile file can make the tool hold and simulate.
    public static let maximumFileBytes = 64 * 1_024 * 1_024
    public static let maximumLines = 1_000_000

    /// Reads a device log. Every field is checked where it is read; the
    /// first bad one is reported with its line and column name.
    public static func parse(_ bytes: [UInt8], file: String) throws(DeviceLogError) -> DeviceLog {
        var reader: CSVReader
        do {
            reader = try CSVReader(bytes, header: header)
        } catch {
            throw DeviceLogError(file: file, line: error.line, field: nil, message: error.message)
        }
        var lines: [Line] = []
        var previousLine = 0
        while true {
            let row: CSVReader.Row?
            do { row = try reader.next() } catch { throw DeviceLogError(file: file, line: error.line, field: nil, message: error.message) }
            guard let row else { break }
            guard lines.count < maximumLines else {
                throw DeviceLogError(file: file, line: row.line, field: nil, message: "more than \(maximumLines) lines, the most a device log may hold (a year of a busy phone is about 50,000)")
            }
            let line = try parseLine(row.fields, line: row.line, file: file)
            if let previous = lines.last {
                try requirePlausibleJump(from: previous.time, line: previousLine, to: line.time, line: row.line, file: file)
            }
            lines.append(line)
            previousLine = row.line
        }
        return DeviceLog(lines: lines, file: file)
    }

    /// The most a log's clock may move between two lines, either way: a
    /// year of 366 days, the longest run a scenario may ask for (a test
    /// holds the two equal).
    public static let maximumClockJump = maximumClockJumpDays * Seconds.day
    static let maximumClockJumpDays = 366

    /// Refuses a line whose time is more than `maximumClockJump` from the
    /// line before. A phone's clock may be set back, or the phone be off for
    /// a while (both are read as such), but a jump of years is a clock set
    /// wrong or a corrupted line: read as a silence, it made `calibrate`
    /// simulate a year against two weeks of log and report nonsense.
    static func requirePlausibleJump(from previous: OffsetTimestamp, line previousLine: Int, to time: OffsetTimestamp, line: Int, file: String) throws(DeviceLogError) {
        let jump = time.epochSeconds - previous.epochSeconds
        guard abs(jump) > maximumClockJump else { return }
        let days = DisplayText.counted(abs(jump) / Seconds.day, "day")
        throw DeviceLogError(
            file: file, line: line, field: "time",
            message: "\(time.text) is \(days) \(jump > 0 ? "after" : "before") line \(previousLine)'s \(previous.text), more than the \(maximumClockJumpDays) days a log's clock may jump (a clock set wrong, or a corrupted line?)")
    }

    static func parseLine(_ fields: [String], line: Int, file: String) throws(DeviceLogError) -> Line {
        func bad(_ column: Int, _ message: String) -> DeviceLogError {
            DeviceLogError(file: file, line: line, field: header[column], message: message)
        }
        for (column, field) in fields.enumerated() where field.utf8.count > maximumFieldBytes {
            throw bad(column, "longer than \(maximumFieldBytes) bytes")
        }
        guard let time = OffsetTimestamp(fields[0][...]) else {
            throw bad(0, "'\(DisplayText.singleLine(fields[0]))' is not a time such as 2026-03-02T07:15:03+01:00 (ISO 8601 with its offset, or Z; years \(OffsetTimestamp.years.lowerBound) to \(OffsetTimestamp.years.upperBound))")
        }
        guard let event = Event(rawValue: fields[1]) else {
            throw bad(1, "'\(DisplayText.singleLine(fields[1]))' is not an event; allowed: \(Event.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let app = fields[2], kind = fields[3], family = fields[4]
        guard !app.isEmpty else { throw bad(2, "empty; every line names its app") }
        var parsed = Line(line: line, time: time, event: event, app: app, kind: kind, family: family, configuration: fields[5])
        switch event {
        case .timeline:
            guard !kind.isEmpty else { throw bad(3, "empty; a timeline line names the widget kind") }
            try requireFamily()
            guard let policy = TimelinePolicyName(rawValue: fields[6]) else {
                throw bad(6, "'\(DisplayText.singleLine(fields[6]))' is not a reload policy; allowed: \(TimelinePolicyName.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            parsed.policy = policy
            if fields[7].isEmpty {
                guard policy != .after else { throw bad(7, "empty; an 'after' policy has a date") }
            } else {
                guard policy != .never else { throw bad(7, "a 'never' policy has no reload date; leave the field empty") }
                guard let after = OffsetTimestamp(fields[7][...]) else {
                    throw bad(7, "'\(DisplayText.singleLine(fields[7]))' is not a time such as 2026-03-02T08:15:00+01:00, or empty")
                }
                parsed.reloadAfter = after
            }
            guard let entries = DecimalDigits.unsigned(fields[8]), (0...maximumEntries).contains(entries) else {
                throw bad(8, "'\(DisplayText.singleLine(fields[8]))' is not a whole number from 0 to \(maximumEntries)")
            }
            parsed.entries = entries
            // F2, F3: an `atEnd` timeline of two or more entries asks for a
            // reload at its last entry's date, which the line must give (with
            // fewer, the system picks the time, and the field may be empty).
            if policy == .atEnd && entries >= 2 && parsed.reloadAfter == nil {
                throw bad(7, "empty; an 'atEnd' timeline of \(entries) entries asks for a reload at its last entry's date")
            }
        case .reloadTimelines:
            guard !kind.isEmpty else { throw bad(3, "empty; reloadTimelines names the kind it reloads") }
            try requireEmpty([4, 6, 7, 8])
        case .intent:
            guard !kind.isEmpty else { throw bad(3, "empty; an intent line names the kind of the widget whose button ran it") }
            try requireFamily()
            try requireEmpty([6, 7, 8])
        case .foreground, .reloadAllTimelines:
            try requireEmpty([3, 4, 6, 7, 8])
        }
        func requireFamily() throws(DeviceLogError) {
            guard WidgetFamily(rawValue: family) == nil else { return }
            throw bad(4, "'\(DisplayText.singleLine(family))' is not a widget family; allowed: \(WidgetFamily.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        func requireEmpty(_ columns: [Int]) throws(DeviceLogError) {
            for column in columns where !fields[column].isEmpty {
                throw bad(column, "'\(DisplayText.singleLine(fields[column]))' given for \(event == .intent ? "an" : "a") '\(event.rawValue)' line, which leaves this field empty")
            }
        }
        return parsed
    }

    /// The log as CSV text, in the columns above.
    public func render() -> String {
        var csv = CSVText(header: Self.header)
        for line in lines {
            csv.append([
                line.time.text, line.event.rawValue, line.app, line.kind, line.family, line.configuration,
                line.policy?.rawValue ?? "", line.reloadAfter?.text ?? "", line.entries.map(String.init) ?? "",
            ])
        }
        return csv.text
    }
}

/// A device log that cannot be read: the file, line and column, and why.
public struct DeviceLogError: Error, Equatable, Sendable, CustomStringConvertible {
    public var file: String
    /// 1-based; 0 for the whole file.
    public var line: Int
    public var field: String?
    public var message: String

    public var description: String {
        let place = line > 0 ? "\(file):\(line)" : file
        if let field { return "\(place): field '\(field)': \(message)" }
        return "\(place): \(message)"
    }
}
