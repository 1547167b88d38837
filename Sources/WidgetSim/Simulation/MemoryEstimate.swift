import Foundation

/// How much memory a run will want, estimated before it starts, so that a
/// scenario far too large for the machine is refused with the numbers
/// instead of failing after minutes.
public enum MemoryEstimate {
    /// Bytes a kept row costs: the record plus its CSV text, generously.
    static let bytesPerRow = 200

    /// The most a run may plan to use: half the machine's memory, at most 8 GiB.
    public static var limitBytes: Int {
        min(Int(ProcessInfo.processInfo.physicalMemory / 2), 8 * 1_024 * 1_024 * 1_024)
    }

    /// Rows a widget adds per day, at most: its page's views, its reloads
    /// (the budget at its learning peak, or one a minute without a budget),
    /// and the free reloads its app's sessions can bring.
    static func rowsPerWidgetDay(_ widget: WidgetSetup, on device: DeviceSetup, scheduler: SchedulerParameters) -> Double {
        let views = device.pages[widget.page].viewsPerDay
        let budgeted = scheduler.budgetModel == .unlimited
            ? Double(Seconds.day / max(60, scheduler.minimumSpacing))
            : Double(scheduler.dailyBudgetMax) * scheduler.learningMultiplier
        let app = device.apps[widget.app]
        let media = app.mediaSessionsPerDay * app.mediaSessionLength.mean / Double(max(1, app.mediaReloadInterval))
        return views * (1 + widget.tapsPerView) + budgeted + app.sessionsPerDay + media + 4
    }

    /// Rows kept by `simulate` (all of them), for a setup listing its devices.
    public static func keptRows(_ setup: SimulationSetup) -> Double {
        var rows = 0.0
        for device in setup.devices {
            for widget in device.widgets {
                rows += rowsPerWidgetDay(widget, on: device, scheduler: setup.scheduler) * Double(setup.days)
            }
        }
        return rows
    }

    /// Bytes `simulate` will need, roughly.
    public static func simulateBytes(_ setup: SimulationSetup) -> Double {
        keptRows(setup) * Double(bytesPerRow)
    }

    /// Bytes `compare` will need: every run in flight keeps its views' staleness.
    public static func compareBytes(_ setup: SimulationSetup, threads: Int) -> Double {
        keptRows(setup) * 8 * Double(max(1, threads))
    }

    /// A refusal message when `bytes` exceeds the limit, nil otherwise.
    public static func refusal(_ bytes: Double, what: String) -> String? {
        guard bytes > Double(limitBytes) else { return nil }
        let gib = { (value: Double) in FixedDecimal.format(value / 1_073_741_824, decimals: 1) }
        return "\(what) would need about \(gib(bytes)) GiB of memory; the limit on this machine is \(gib(Double(limitBytes))) GiB (half its memory, at most 8 GiB). Use fewer devices or days, or describe the population as a fleet (widgetsim fleet), which keeps no rows"
    }
}
