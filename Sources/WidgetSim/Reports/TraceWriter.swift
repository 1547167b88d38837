/// Writes a run as a Chrome trace-event file (`trace.json`) that opens in
/// Perfetto (ui.perfetto.dev) or chrome://tracing: one process per device, one
/// track per widget, provider calls as slices, views and withheld requests as
/// instant events, and the budget used as a counter.
///
/// Timestamps are virtual microseconds since the scenario's start.
struct TraceWriter {
    let setup: SimulationSetup
    let collector: ReportCollector

    func render() -> String {
        var lines: [String] = []
        for (deviceIndex, device) in setup.devices.enumerated() {
            lines.append(metadata("process_name", pid: deviceIndex + 1, tid: 0, name: "device \(device.id)"))
            for (widgetIndex, widget) in device.widgets.enumerated() {
                lines.append(metadata("thread_name", pid: deviceIndex + 1, tid: widgetIndex + 1, name: "\(widget.id) (\(widget.kind))"))
            }
        }
        for record in collector.reloads {
            let duration = max(1, record.completesAt - record.time) * 1_000_000
            let args = "{\"trigger\":\"\(record.trigger.reportName)\",\"budgeted\":\(record.budgeted),\"budget_used_24h\":\(record.budgetUsed24h),\"result\":\"\(record.result.rawValue)\",\"entries\":\(record.entryCount)}"
            lines.append(event(name: "reload: \(record.trigger.reportName)", phase: "X", record.device, record.widget, at: record.time, extra: ",\"dur\":\(duration),\"args\":\(args)"))
            if record.budgeted {
                lines.append("{\"name\":\"budget used (\(widgetName(record.device, record.widget)))\",\"ph\":\"C\",\"pid\":\(record.device + 1),\"ts\":\(record.time * 1_000_000),\"args\":{\"used_24h\":\(record.budgetUsed24h)}}")
            }
        }
        for record in collector.views {
            let name = record.isStale ? "view: stale \(DurationText.format(Double(record.staleness)))" : "view: fresh"
            lines.append(event(name: name, phase: "i", record.device, record.widget, at: record.time, extra: ",\"s\":\"t\""))
        }
        for record in collector.withheld {
            lines.append(event(name: "withheld: \(record.trigger.reportName) ×\(record.requests)", phase: "i", record.device, record.widget, at: record.time, extra: ",\"s\":\"t\""))
        }
        return "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n" + lines.joined(separator: ",\n") + "\n]}\n"
    }

    func widgetName(_ device: Int, _ widget: Int) -> String { setup.devices[device].widgets[widget].id }

    func metadata(_ kind: String, pid: Int, tid: Int, name: String) -> String {
        "{\"name\":\"\(kind)\",\"ph\":\"M\",\"pid\":\(pid),\"tid\":\(tid),\"args\":{\"name\":\"\(JSONText.escaped(name))\"}}"
    }

    func event(name: String, phase: String, _ device: Int, _ widget: Int, at time: SimTime, extra: String) -> String {
        "{\"name\":\"\(JSONText.escaped(name))\",\"ph\":\"\(phase)\",\"pid\":\(device + 1),\"tid\":\(widget + 1),\"ts\":\(time * 1_000_000)\(extra)}"
    }
}
