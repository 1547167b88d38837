import WidgetSim

/// The two logs of rows the command line reads, told apart by their
/// header: a report's reloads.csv (`check --reloads`) and a phone's device
/// log (`check --device-log`, `calibrate`) have different columns, so one
/// given where the other is meant gets the option that reads it, not a
/// complaint about its fields.
enum LogFormat: Equatable {
    case reloadsLog
    case deviceLog

    /// How much of a file is read to tell: a header is a line of a few
    /// hundred bytes at most, so a longer first line is neither.
    static let headBytes = 4_096

    /// The format whose header `bytes` begin with, read as the readers
    /// read it (`CSVHeader`); nil for any other.
    init?(header bytes: [UInt8]) {
        let head = Array(bytes.prefix(LogFormat.headBytes))
        if CSVHeader.begins(head, with: ReportWriter.reloadsHeader) {
            self = .reloadsLog
        } else if CSVHeader.begins(head, with: DeviceLog.header) {
            self = .deviceLog
        } else {
            return nil
        }
    }

    /// The format of the file at `path`, from its first bytes only; nil
    /// when it is neither, or cannot be read (a named pipe is not waited on).
    init?(ofFileAt path: String) {
        guard let head = try? InputFile.head(at: path, count: LogFormat.headBytes) else { return nil }
        self.init(header: head)
    }
}
