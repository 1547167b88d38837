@testable import WidgetSim

/// Draws a widget's calls as a text timeline, one character per `step`
/// seconds, so a test of a schedule reads like the schedule:
/// `I` initial call, `B` budgeted call, `F` free call, `.` nothing.
/// Two calls in one step draw as `2`, `3`...
func diagram(_ calls: [ReloadRecord], step: Int, length: Int) -> String {
    var cells = Array(repeating: [ReloadRecord](), count: length)
    for call in calls where call.time / step < length {
        cells[call.time / step].append(call)
    }
    return String(cells.map { cell -> Character in
        switch cell.count {
        case 0: return "."
        case 1: return cell[0].trigger == .initial ? "I" : (cell[0].budgeted ? "B" : "F")
        default: return Character(String(min(cell.count, 9)))
        }
    })
}
