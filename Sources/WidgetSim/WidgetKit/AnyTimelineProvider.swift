/// A type-erased provider, so one device can hold providers of different entry types.
///
/// Each instance owns its provider's state; it is used by one simulated device
/// on one thread and is deliberately not `Sendable`. Build one per device run
/// from a `@Sendable` factory.
public struct AnyTimelineProvider {
    private let box: _AnyProviderBox

    public init<Provider: TimelineProvider>(_ provider: Provider) {
        box = _ProviderBox(provider)
    }

    /// A provider that writes its entries into the widget's buffer itself
    /// (the built-in one): chosen by overload resolution, so no type is ever
    /// tested at run time.
    init<Provider: _BufferedTimelineProvider>(_ provider: Provider) {
        box = _BufferedProviderBox(provider)
    }

    func placeholder(in context: TimelineProviderContext) -> ScheduledEntry {
        box.placeholder(in: context)
    }

    func snapshot(in context: TimelineProviderContext) -> ScheduledEntry {
        box.snapshot(in: context)
    }

    /// The box, whose `timeline(in:into:timeLimit:)` runs the provider, not
    /// retained: for a caller whose own storage keeps this provider, and so
    /// its box, alive for as long as it uses the box
    /// (`_withUnsafeGuaranteedRef`). Calling through a copy of the provider
    /// retained and released the box on every reload, two atomic
    /// operations (README, "Speed").
    var unretainedBox: Unmanaged<_AnyProviderBox> { Unmanaged.passUnretained(box) }
}

class _AnyProviderBox {
    func placeholder(in context: TimelineProviderContext) -> ScheduledEntry { fatalError("abstract") }
    func snapshot(in context: TimelineProviderContext) -> ScheduledEntry { fatalError("abstract") }
    /// Runs the provider, writing its entries (sorted by date) into `entries`.
    /// A call that takes longer than `timeLimit` seconds was halted (F22): its
    /// effects on the provider's own state (a cache, say) are undone, because
    /// the extension never got to make them.
    func timeline(in context: inout TimelineProviderContext, into entries: inout [ScheduledEntry], timeLimit: Int) -> TimelineReloadPolicy {
        fatalError("abstract")
    }
}

class _ProviderBox<Provider: TimelineProvider>: _AnyProviderBox {
    // One device's thread uses a box, and no method re-enters another, so
    // two accesses never overlap: the runtime's exclusivity check (a lookup
    // on every provider call) can go.
    @exclusivity(unchecked) var provider: Provider

    init(_ provider: Provider) { self.provider = provider }

    override func placeholder(in context: TimelineProviderContext) -> ScheduledEntry {
        ScheduledEntry(provider.placeholder(in: context))
    }

    override func snapshot(in context: TimelineProviderContext) -> ScheduledEntry {
        ScheduledEntry(provider.snapshot(in: context))
    }

    override func timeline(in context: inout TimelineProviderContext, into entries: inout [ScheduledEntry], timeLimit: Int) -> TimelineReloadPolicy {
        let saved = provider
        let timeline = provider.timeline(in: &context)
        if context.now - context.reloadStartedAt > timeLimit { provider = saved }
        entries.removeAll(keepingCapacity: true)
        for entry in timeline.entries { entries.append(ScheduledEntry(entry)) }
        // WidgetKit shows entries by date whatever order they came in.
        // Equal dates keep the provider's order (sorting by index too makes
        // that explicit rather than relying on sort stability).
        if !entries.isSorted(by: { $0.date <= $1.date }) {
            entries = entries.enumerated()
                .sorted { ($0.element.date, $0.offset) < ($1.element.date, $1.offset) }
                .map(\.element)
        }
        return timeline.policy
    }
}

/// A provider that writes its timeline straight into the widget's reusable
/// entry buffer, so a steady-state reload allocates and copies nothing.
///
/// It must honour the time limit as `_ProviderBox` does: a call that outlasts
/// `timeLimit` leaves the provider's own state as it was (F22).
protocol _BufferedTimelineProvider: TimelineProvider {
    mutating func timeline(in context: inout TimelineProviderContext, into entries: inout [ScheduledEntry], timeLimit: Int) -> TimelineReloadPolicy
}

final class _BufferedProviderBox<Provider: _BufferedTimelineProvider>: _ProviderBox<Provider> {
    override func timeline(in context: inout TimelineProviderContext, into entries: inout [ScheduledEntry], timeLimit: Int) -> TimelineReloadPolicy {
        provider.timeline(in: &context, into: &entries, timeLimit: timeLimit)
    }
}
