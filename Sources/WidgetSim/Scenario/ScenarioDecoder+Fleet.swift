// "fleet": a population drawn from one device template.

extension ScenarioDecoder {
    static let fleetFields = ["devices", "device", "utcOffsets", "wake", "sleep", "viewsScale", "sessionsScale", "widgetSets", "addedWithin", "warmUpDays", "moments"]
    static let momentFields = ["at", "share", "spread", "action", "page", "app", "kind", "length"]
    /// Actions a moment may take: none names a widget, since a fleet's widget
    /// sets give devices different widgets.
    static let momentActions = [
        "view", "reloadTimelines", "reloadAllTimelines", "push", "appSession", "mediaSession", "locationChange", "systemChange",
    ]

    /// The script actions that stand for what a user does, not a server or
    /// the world: a template's script gives every device the same second.
    static let userScriptActions = ["view", "appSession", "mediaSession", "tap", "locationChange"]

    /// Warns of each user action in a fleet template's script: every device
    /// does it in the same second of its local day (devices differ only by
    /// their offsets), so the load report shows a spike no crowd of users
    /// makes. A push, a truth change or a system change at one instant for
    /// all is what a server or the world does, and is not warned of.
    func warnOfUserActionsInStep(_ device: ValueReader) {
        guard let entries = try? device.object().optional("script")?.array() else { return }
        for entry in entries {
            guard let action = try? entry.object().optional("action")?.string(), ScenarioDecoder.userScriptActions.contains(action) else { continue }
            warnings?.warn(entry, "every device of the fleet does this \(action) in the same second of its local day, so its server load lands in one minute, a spike no crowd of users makes; users' own views and sessions come from the pages' viewsPerDay and the apps' sessionsPerDay, spread by the user's hourlyActivity")
        }
    }

    func decodeFleet(_ value: ValueReader, days: Int) throws(ScenarioError) -> FleetSetup {
        let object = try value.object()
        try object.rejectUnknownFields(ScenarioDecoder.fleetFields)
        let count = try object.required("devices").int(in: 1...FleetSetup.maximumDevices)
        let template = try decodeDevice(try object.required("device"), days: days, idRequired: false)
        warnOfUserActionsInStep(try object.required("device"))
        var variation = FleetVariation()
        if let zones = object.optional("utcOffsets") {
            let list = try ScenarioDecoder.nonEmpty(zones, leaveOut: "the template's offset")
            for zone in list {
                let fields = try zone.object()
                try fields.rejectUnknownFields(["offset", "weight"])
                variation.utcOffsets.append((
                    try decodeOffset(try fields.required("offset")), try fields.optional("weight")?.double(in: 0...1e9) ?? 1))
            }
            try ScenarioDecoder.requirePositiveWeight(variation.utcOffsets.map(\.weight), zones)
        }
        let wake = try object.optional("wake").map { field throws(ScenarioError) in (range: try decodeClockRange(field), field: field) }
        let sleep = try object.optional("sleep").map { field throws(ScenarioError) in (range: try decodeClockRange(field), field: field) }
        variation.wake = wake?.range
        variation.sleep = sleep?.range
        warnOfWakeMeetingSleep(wake: wake, sleep: sleep, user: template.user)
        if let scale = object.optional("viewsScale") { variation.viewsScale = try decodeValueDistribution(scale) }
        if let scale = object.optional("sessionsScale") { variation.sessionsScale = try decodeValueDistribution(scale) }
        if let within = object.optional("addedWithin") { variation.addedWithin = try within.wholeSeconds(maximum: days * Seconds.day, from: "the start of the run") }
        if let sets = object.optional("widgetSets") {
            let ids = template.widgets.map(\.id)
            for set in try ScenarioDecoder.nonEmpty(sets, leaveOut: "every device's widgets from the template") {
                let fields = try set.object()
                try fields.rejectUnknownFields(["widgets", "weight"])
                var members: [Int] = []
                let widgetList = try fields.required("widgets")
                guard !(try widgetList.array()).isEmpty else {
                    throw widgetList.invalid("the list is empty", allowed: "at least one of the template's widget ids; a device without widgets has nothing to simulate")
                }
                for member in try widgetList.array() {
                    let index = try reference(member, to: ids, what: "widget")!
                    guard !members.contains(index) else {
                        throw member.invalid("widget listed twice", allowed: "each widget at most once per set")
                    }
                    members.append(index)
                }
                variation.widgetSets.append((members.sorted(), try fields.optional("weight")?.double(in: 0...1e9) ?? 1))
            }
            try ScenarioDecoder.requirePositiveWeight(variation.widgetSets.map(\.weight), sets)
        }
        var fleet = FleetSetup(deviceCount: count, template: template, variation: variation)
        if let warmUp = object.optional("warmUpDays") { fleet.warmUpDays = try warmUp.int(in: 0...30) }
        if let moments = object.optional("moments") {
            // The template's names, once for every moment.
            let names = DeviceNames(pages: template.pages, apps: template.apps, widgets: template.widgets, hints: kindHints)
            for moment in try ScenarioDecoder.nonEmpty(moments, leaveOut: "no moments") {
                fleet.moments.append(try decodeMoment(moment, template: template, names: names, days: days))
            }
        }
        return fleet
    }

    /// {"at": instant, "share": 0...1, "spread": duration, "action": ..., "app": ...}
    func decodeMoment(_ value: ValueReader, template: DeviceSetup, names: DeviceNames, days: Int) throws(ScenarioError) -> FleetMoment {
        let object = try value.object()
        try object.rejectUnknownFields(ScenarioDecoder.momentFields)
        let at = try instant(try object.required("at"), days: days)
        let share = try object.required("share").probability()
        let spread = try object.optional("spread")?.wholeSeconds(maximum: Seconds.day) ?? 0
        let actionValue = try object.required("action")
        let name = try actionValue.string()
        if ["tap", "truthChange"].contains(name) {
            throw actionValue.invalid(
                "action \"\(name)\" names a widget, and a fleet's widget sets give devices different widgets",
                allowed: ScenarioDecoder.momentActions.map { "\"\($0)\"" }.joined(separator: ", "))
        }
        // The template's widgets: no action allowed here names one, and a
        // reloaded kind that none of them has, no device's widget set has.
        let action = try decodeAction(object, names: names, allowed: ScenarioDecoder.momentActions)
        let app = ScenarioDecoder.appIndex(of: action).map { " (\(template.apps[$0].id))" } ?? ""
        let percent = FixedDecimal.format(share * 100, decimals: share * 100 == (share * 100).rounded() ? 0 : 1)
        let within = spread > 0 ? " within \(DurationText.format(Double(spread)))" : " in the same second"
        return FleetMoment(at: at, share: share, spread: spread, action: action, label: "\(name)\(app) to \(percent) % of devices\(within)")
    }

    /// The app an action names, if it names one.
    static func appIndex(of action: ScriptedAction.Action) -> Int? {
        switch action {
        case .reloadTimelines(let app, _), .reloadAllTimelines(let app), .push(let app), .appSession(let app, _), .mediaSession(let app, _):
            return app
        default: return nil
        }
    }

    /// {"from": "HH:MM", "to": "HH:MM"}; "to" before "from" runs past midnight.
    func decodeClockRange(_ value: ValueReader) throws(ScenarioError) -> ClosedRange<Int> {
        let object = try value.object()
        try object.rejectUnknownFields(["from", "to"])
        let from = try object.required("from").clockTime()
        var to = try object.required("to").clockTime()
        if to < from {
            to += Seconds.day
            // A range across midnight is meant for sleep ("22:00" to "00:30");
            // one longer than half a day is more likely from and to swapped.
            if to - from > Seconds.day / 2 {
                warnings?.warn(value, "from \(DurationText.clock(from)) to \(DurationText.clock(to % Seconds.day)) crosses midnight, so each device draws a time from \(DurationText.format(Double(to - from))) of the day; if the range is \(DurationText.clock(to % Seconds.day)) to \(DurationText.clock(from)), swap from and to")
            }
        }
        return from...to
    }

    /// Each device's sleep comes after its wake, a day later when its draw
    /// falls at or before it: a wake and a sleep that can meet leave some
    /// devices awake almost 24 hours. A range is compared with the other
    /// range, or with the template user's own time when only one is given.
    func warnOfWakeMeetingSleep(
        wake: (range: ClosedRange<Int>, field: ValueReader)?, sleep: (range: ClosedRange<Int>, field: ValueReader)?, user: UserProfile
    ) {
        let consequence = "a device whose sleep falls at or before its wake goes to sleep the next day, awake almost 24 hours"
        switch (wake, sleep) {
        case (let wake?, let sleep?):
            if Self.clockRangesMeet(wake.range, sleep.range) { warnings?.warn(sleep.field, "it shares clock times with the wake range: \(consequence)") }
        case (let wake?, nil):
            let sleep = user.sleepSecond
            if Self.clockRangesMeet(wake.range, sleep...sleep) {
                warnings?.warn(wake.field, "it holds the device template's sleep time, \(DurationText.clock(sleep % Seconds.day)): \(consequence)")
            }
        case (nil, let sleep?):
            let wake = user.wakeSecond
            if Self.clockRangesMeet(wake...wake, sleep.range) {
                warnings?.warn(sleep.field, "it holds the device template's wake time, \(DurationText.clock(wake)): \(consequence)")
            }
        case (nil, nil):
            break
        }
    }

    /// True when two clock ranges (each `from...to`, `to` past a day when
    /// it crosses midnight) hold a common time of day.
    static func clockRangesMeet(_ first: ClosedRange<Int>, _ second: ClosedRange<Int>) -> Bool {
        [-Seconds.day, 0, Seconds.day].contains { shift in
            first.lowerBound <= second.upperBound + shift && second.lowerBound + shift <= first.upperBound
        }
    }

    /// The elements of a list that must not be empty: leaving the field out
    /// means `leaveOut`; an empty list means nothing and is refused.
    static func nonEmpty(_ value: ValueReader, leaveOut meaning: String) throws(ScenarioError) -> [ValueReader] {
        let list = try value.array()
        guard !list.isEmpty else {
            throw value.invalid("the list is empty", allowed: "at least one element, or leave the field out for \(meaning)")
        }
        return list
    }

    /// Weights are drawn from in proportion; all zero leaves nothing to draw.
    static func requirePositiveWeight(_ weights: [Double], _ value: ValueReader) throws(ScenarioError) {
        guard weights.contains(where: { $0 > 0 }) else {
            throw value.invalid("every weight is 0", allowed: "weights ≥ 0, at least one of them > 0")
        }
    }
}
