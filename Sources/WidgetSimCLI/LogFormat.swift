import Foundation
import WidgetSim

/// The two logs of rows the command line reads, told apart by their
/// header: a report's reloads.csv (`check --reloads`) and a phone's device
/// log (`check --device-log`, `calibrate`) have different columns, so one
/// given where the other is meant gets the option that reads it, not a
/// complaint about its fields.
enum LogFormat: Equatable {
    case reloadsLog
    case deviceLog

    /// The format whose header the file's first line is; nil for any other.
    init?(header bytes: [UInt8]) {
        let line = bytes.prefix { $0 != UInt8(ascii: "\n") }
        let fields = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            .split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        switch fields {
        case ReportWriter.reloadsHeader: self = .reloadsLog
        case DeviceLog.header: self = .deviceLog
        default: return nil
        }
    }
}
