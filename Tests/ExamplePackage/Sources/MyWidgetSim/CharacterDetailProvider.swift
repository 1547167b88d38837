import WidgetSim

struct CharacterDetailEntry: TimelineEntry {
    var date: SimTime
    var healthLevel: Double
}

struct CharacterDetailProvider: TimelineProvider {
    func placeholder(in context: Context) -> CharacterDetailEntry {
        CharacterDetailEntry(date: context.now, healthLevel: 1)
    }

    func snapshot(in context: Context) -> CharacterDetailEntry {
        CharacterDetailEntry(date: context.now, healthLevel: 1)
    }

    func timeline(in context: inout Context) -> Timeline<CharacterDetailEntry> {
        var date = context.now
        var healthLevel = 0.25
        var entries: [CharacterDetailEntry] = []

        while healthLevel <= 1 {
            // Add the current health level for a given date.
            entries.append(CharacterDetailEntry(date: date, healthLevel: healthLevel))

            // Health recovers at 25 percent per hour, with a maximum of 100 percent.
            healthLevel += 0.25

            // Move the date forward by 1 hour.
            date += Seconds.hour
        }

        // Create the timeline and return it: there is no completion handler.
        let timeline = Timeline(entries: entries, policy: .atEnd)
        return timeline
    }
}
