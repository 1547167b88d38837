import Testing
@testable import WidgetSim

/// Valid scenarios that probably do not say what their author meant get a
/// warning naming the file, line:column and field, and what will happen.
@Suite("Scenario warnings")
struct ScenarioWarningTests {
    static func warnings(_ text: String) throws -> [String] {
        try ScenarioLoader.decodeDocument(text, file: "w.json").warnings.map(\.description)
    }

    /// A sleep time at or before the wake time is the next day's; a waking
    /// day of more than 20 hours is warned of, as a fleet's ranges are, and
    /// a night that ends after midnight is not (found by a red-team pass).
    @Test func aWakingDayOfMoreThanTwentyHoursIsWarnedOf() throws {
        func user(_ fields: String) -> String {
            #"{"name": "u", "devices": [{"id": "p", "user": {"# + fields + #"}, "widgets": [{"id": "w", "provider": {"policy": "never"}}]}]}"#
        }
        #expect(try Self.warnings(user(#""wake": "09:00", "sleep": "08:00""#)) == [
            "w.json:1:74: field 'devices[0].user.sleep': sleep 08:00 comes at or before wake 09:00, so it is the next day's: the user is awake 23h a day; if that is not meant, check wake and sleep",
        ])
        #expect(try Self.warnings(user(#""wake": "07:00", "sleep": "07:00""#)).count == 1)
        #expect(try Self.warnings(user(#""wake": "08:00", "sleep": "01:30""#)) == [])
        #expect(try Self.warnings(user(#""wake": "00:00", "sleep": "24:00""#)) == [])
    }

    /// A fleet template's script gives every device the same second of its
    /// day: a user's view or session there is a spike no crowd of users
    /// makes, and is warned of; a server's push at one instant is not.
    @Test func aUserActionInAFleetTemplatesScriptIsWarnedOf() throws {
        func fleet(_ script: String) -> String {
            """
            { "name": "f", "fleet": { "devices": 10, "device": {
                "pages": [ { "name": "home", "viewsPerDay": 10 } ], "apps": [ { "id": "a" } ],
                "widgets": [ { "id": "w", "page": "home", "app": "a", "provider": { "policy": "atEnd" } } ],
                "script": [ \(script) ] } } }
            """
        }
        let warned = try Self.warnings(fleet(#"{ "daily": "07:38", "days": ["mon"], "action": "view", "page": "home" }"#))
        #expect(warned.count == 1)
        #expect(warned.first?.contains("field 'fleet.device.script[0]': every device of the fleet does this view in the same second of its local day") == true, "\(warned)")
        #expect(try Self.warnings(fleet(#"{ "daily": "07:30", "action": "push", "app": "a" }"#)).isEmpty)
    }

    static func fleet(wake: String, sleep: String) -> String {
        """
        { "name": "f", "fleet": { "devices": 10,
            "wake": \(wake),
            "sleep": \(sleep),
            "device": {
            "pages": [ { "name": "home", "viewsPerDay": 10 } ], "apps": [ { "id": "a" } ],
            "widgets": [ { "id": "w", "page": "home", "app": "a", "provider": { "policy": "atEnd" } } ] } } }
        """
    }

    /// A fleet's clock range may cross midnight, as sleep does ("22:00" to
    /// "00:30"); one that crosses it and spans more than half the day is more
    /// likely from and to written the wrong way round, and is warned of.
    @Test func aFleetClockRangeCrossingMidnightOverHalfTheDayIsWarnedOfAsSwapped() throws {
        let swapped = try Self.warnings(Self.fleet(wake: #"{ "from": "08:30", "to": "06:00" }"#, sleep: #"{ "from": "22:00", "to": "23:00" }"#))
        // (Such a wake range also holds every sleep time but 06:00 to 08:30, which the next rule warns of.)
        #expect(swapped.first == "w.json:2:13: field 'fleet.wake': from 08:30 to 06:00 crosses midnight, so each device draws a time from 21h30m of the day; if the range is 06:00 to 08:30, swap from and to", "\(swapped)")
        #expect(try Self.warnings(Self.fleet(wake: #"{ "from": "06:00", "to": "08:30" }"#, sleep: #"{ "from": "22:00", "to": "00:30" }"#)).isEmpty)
        #expect(try Self.warnings(Self.fleet(wake: #"{ "from": "07:00", "to": "07:00" }"#, sleep: #"{ "from": "12:00", "to": "00:00" }"#)).isEmpty)
    }

    /// A device's sleep comes after its wake, a day later when the draw puts
    /// it at or before the wake: wake and sleep ranges that share a clock
    /// time give some devices almost 24 waking hours, and are warned of.
    @Test func fleetWakeAndSleepRangesThatShareAClockTimeAreWarnedOf() throws {
        let overlapping = try Self.warnings(Self.fleet(wake: #"{ "from": "06:00", "to": "08:30" }"#, sleep: #"{ "from": "07:00", "to": "09:00" }"#))
        #expect(overlapping == [
            "w.json:3:14: field 'fleet.sleep': it shares clock times with the wake range: a device whose sleep falls at or before its wake goes to sleep the next day, awake almost 24 hours",
        ])
        // Across midnight on either side, the ranges are compared as clock times.
        #expect(try Self.warnings(Self.fleet(wake: #"{ "from": "00:10", "to": "01:00" }"#, sleep: #"{ "from": "23:00", "to": "00:30" }"#)).count == 1)
        #expect(try Self.warnings(Self.fleet(wake: #"{ "from": "06:00", "to": "08:30" }"#, sleep: #"{ "from": "22:00", "to": "05:59" }"#)).isEmpty)
    }

    /// One range alone is compared with the device template's own time
    /// (its user's wake 07:00 and sleep 23:00 by default): a sleep range
    /// holding the template's wake, or a wake range holding its sleep, is
    /// warned of as two ranges that meet are (found by a red-team pass).
    @Test func aFleetRangeHoldingTheTemplatesOwnWakeOrSleepIsWarnedOf() throws {
        func fleet(_ field: String, _ range: String) -> String {
            """
            { "name": "f", "fleet": { "devices": 10, "\(field)": \(range), "device": {
                "pages": [ { "name": "home", "viewsPerDay": 10 } ], "apps": [ { "id": "a" } ],
                "widgets": [ { "id": "w", "page": "home", "app": "a", "provider": { "policy": "atEnd" } } ] } } }
            """
        }
        #expect(try Self.warnings(fleet("sleep", #"{ "from": "06:00", "to": "08:00" }"#)) == [
            "w.json:1:51: field 'fleet.sleep': it holds the device template's wake time, 07:00: a device whose sleep falls at or before its wake goes to sleep the next day, awake almost 24 hours",
        ])
        #expect(try Self.warnings(fleet("wake", #"{ "from": "22:00", "to": "23:30" }"#)) == [
            "w.json:1:50: field 'fleet.wake': it holds the device template's sleep time, 23:00: a device whose sleep falls at or before its wake goes to sleep the next day, awake almost 24 hours",
        ])
        #expect(try Self.warnings(fleet("sleep", #"{ "from": "22:00", "to": "00:30" }"#)).isEmpty)
        #expect(try Self.warnings(fleet("wake", #"{ "from": "06:00", "to": "08:30" }"#)).isEmpty)
    }

    /// F13: WidgetKit keeps reloads at least the minimum spacing apart, so an
    /// `after` interval below it cannot be honoured.
    @Test func anAfterShorterThanTheMinimumSpacingWarnsWhatWidgetKitWillDo() throws {
        let text = ScenarioLoadingTests.scenario(widget: #""provider": {"policy": "after", "after": "1m"}"#)
        #expect(try Self.warnings(text) == [
            "w.json:7:63: field 'devices[0].widgets[0].provider.after': 1m is shorter than the minimum spacing 5m (scheduler.minimumSpacing): WidgetKit keeps a widget's reloads at least 5m apart (F13), so this widget reloads at most every 5m, not every 1m",
        ])
        // The scenario's own spacing is the one compared with.
        let spaced = ScenarioLoadingTests.scenario(
            widget: #""provider": {"policy": "after", "after": "1m"}"#, top: #" "scheduler": { "minimumSpacing": "30s" },"#)
        #expect(try Self.warnings(spaced).isEmpty)
        let atSpacing = ScenarioLoadingTests.scenario(widget: #""provider": {"policy": "after", "after": "5m"}"#)
        #expect(try Self.warnings(atSpacing).isEmpty)
    }

    /// F16: WidgetCenter reloads the app's widgets of one kind, so a kind
    /// that none of the app's widgets has reloads nothing; a misspelt kind
    /// in `foregroundReload` or a scripted `reloadTimelines` warns, with the
    /// kinds the app has.
    @Test func aReloadOfAKindNoneOfTheAppsWidgetsHasWarns() throws {
        func scenario(foreground: String, scripted: String) -> String {
            """
            {
              "name": "kinds",
              "devices": [{
                "id": "phone",
                "apps": [ { "id": "todo", "foregroundReload": "kind:\(foreground)" }, { "id": "other" } ],
                "widgets": [ { "id": "w", "kind": "com.example.todo.list", "app": "todo", "provider": { "policy": "atEnd" } } ],
                "script": [ { "at": "1h", "action": "reloadTimelines", "app": "todo", "kind": "\(scripted)" },
                            { "at": "2h", "action": "reloadTimelines", "app": "other", "kind": "com.example.todo.list" } ]
              }]
            }
            """
        }
        let misspeltForeground = try Self.warnings(scenario(foreground: "com.example.todo.lst", scripted: "com.example.todo.list"))
        #expect(misspeltForeground == [
            "w.json:5:51: field 'devices[0].apps[0].foregroundReload': no widget of app \"todo\" is of kind \"com.example.todo.lst\" (did you mean \"com.example.todo.list\"?): its widgets' kinds are \"com.example.todo.list\", so this reload reaches no widget (F16)",
            "w.json:8:84: field 'devices[0].script[1].kind': no widget of app \"other\" is of kind \"com.example.todo.list\": it has no widgets, so this reload reaches no widget (F16)",
        ])
        let misspeltScript = try Self.warnings(scenario(foreground: "com.example.todo.list", scripted: "com.example.todo.lists"))
        #expect(misspeltScript.first?.hasPrefix("w.json:7:") == true && misspeltScript.first?.contains("field 'devices[0].script[0].kind'") == true, "\(misspeltScript)")
        #expect(misspeltScript.count == 2)
    }

    /// An app of many kinds: a warning names ten of them (the hint names
    /// the nearest), and a wrong kind is matched against them once, however
    /// often the script names it, and at most `KindHints.maximum` kinds in
    /// the file get a hint, so that a script of a hundred thousand reloads,
    /// each naming a kind of its own, is not compared with 200 kinds at
    /// each, nor again for each variant (whose copies of the scenario's
    /// warnings are the same, and dropped).
    @Test func aKindWarningNamesTenKindsAndSuggestsForAHundredKindsAtMost() throws {
        let widgets = (0..<30).map { #"{ "id": "w\#($0)", "kind": "com.example.k\#($0)", "app": "a", "provider": { "policy": "never" } }"# }
        let wrong = (0..<(KindHints.maximum + 5)).map { #"{ "at": "1h", "action": "reloadTimelines", "app": "a", "kind": "com.example.k\#($0)x" }"# }
        let repeated = #"{ "at": "2h", "action": "reloadTimelines", "app": "a", "kind": "com.example.k0x" }"#
        let text = """
            { "name": "kinds", "devices": [ { "id": "p", "apps": [ { "id": "a" } ],
              "widgets": [ \(widgets.joined(separator: ", ")) ],
              "script": [ \(wrong.joined(separator: ", ")), \(repeated) ] } ],
              "variants": [ { "name": "v1", "scheduler": { "coalescingWindow": "1m" } }, { "name": "v2", "scheduler": { "coalescingWindow": "2m" } } ] }
            """
        let warnings = try Self.warnings(text)
        #expect(warnings.count == wrong.count + 1)
        let listed = (0..<10).map { "\"com.example.k\($0)\"" }.joined(separator: ", ") + " and 20 more"
        #expect(warnings.allSatisfy { $0.contains("its widgets' kinds are \(listed), so this reload reaches no widget (F16)") })
        #expect(warnings[0].contains("is of kind \"com.example.k0x\" (did you mean \"com.example.k0\"?)"))
        #expect(warnings[KindHints.maximum - 1].contains("did you mean"))
        // The hundred-and-first distinct kind gets no hint; the first, named again, keeps its own.
        #expect(!warnings[KindHints.maximum].contains("did you mean"))
        #expect(warnings.last!.contains("(did you mean \"com.example.k0\"?)"))
    }

    /// The nearest name skips candidates whose length alone puts them out
    /// of reach, which changes no suggestion: the same as comparing each.
    @Test func aSuggestionIsTheNearestOfAllCandidates() {
        func reference(_ word: String, _ candidates: [String]) -> String? {
            var best: (distance: Int, candidate: String)?
            for candidate in candidates {
                let distance = Suggestion.editDistance(word.lowercased(), candidate.lowercased())
                if best == nil || distance < best!.distance { best = (distance, candidate) }
            }
            if let best, best.distance <= max(2, word.count / 3) { return best.candidate }
            return candidates.filter { $0.count >= 3 && word.lowercased().hasPrefix($0.lowercased()) }.max { $0.count < $1.count }
        }
        var random = RandomStream(seed: 31)
        let letters = Array("abcAB.-")
        func word(_ length: Int) -> String { String((0..<length).map { _ in letters[random.nextInt(below: letters.count)] }) }
        for _ in 0..<2_000 {
            let candidates = (0..<random.nextInt(in: 0...6)).map { _ in word(random.nextInt(in: 1...12)) }
            let typed = random.nextBool(probability: 0.5) && !candidates.isEmpty
                ? candidates[0] + word(random.nextInt(in: 0...3)) : word(random.nextInt(in: 1...16))
            #expect(Suggestion.nearest(to: typed, among: candidates) == reference(typed, candidates), "\(typed) among \(candidates)")
        }
        #expect(Suggestion.nearest(to: String(repeating: "x", count: 1 << 20), among: ["weather", "news"]) == nil)
    }

    /// A value given by its last word is too far from its name for a typo,
    /// but plainly meant: a family written "medium" suggests "systemMedium",
    /// where the message listed the families with no suggestion (found by
    /// a newcomer's trial). Only when one value ends with that word, at the
    /// start of one of its words, and only among values: a red-team pass
    /// found "budget" suggesting "pushBudget" among fields, and "rate"
    /// suggesting "calibrate" among commands.
    @Test func aValueGivenByItsLastWordSuggestsTheWholeName() throws {
        let families = WidgetFamily.allCases.map(\.rawValue)
        #expect(Suggestion.wholeName(endingWith: "medium", among: families) == "systemMedium")
        #expect(Suggestion.wholeName(endingWith: "Inline", among: families) == "accessoryInline")
        #expect(Suggestion.wholeName(endingWith: "large", among: families) == nil)
        #expect(Suggestion.wholeName(endingWith: "rate", among: ["calibrate", "simulate"]) == nil)
        #expect(Suggestion.wholeName(endingWith: "budget", among: ["push-budget", "budget-model"]) == "push-budget")
        #expect(Suggestion.wholeName(endingWith: "all", among: ["reloadAll"]) == nil)
        #expect(Suggestion.nearest(to: "medium", among: families) == nil)
        let text = #"{ "name": "w", "days": 1, "devices": [ { "id": "p", "widgets": [ { "id": "w", "family": "medium", "provider": { "policy": "never" } } ] } ] }"#
        do {
            _ = try ScenarioLoader.decode(text, file: "w.json")
            Issue.record("a family of \"medium\" was accepted")
        } catch {
            #expect("\(error)".contains("field 'devices[0].widgets[0].family': unknown value \"medium\" (did you mean \"systemMedium\"?)"), "\(error)")
        }
    }

    /// A short name written out in full is too far from it for a typo, but
    /// plainly meant: "sunday" suggests "sun", where no suggestion came.
    @Test func aNameWrittenOutInFullSuggestsItsShortForm() throws {
        let weekdays = Weekday.allCases.map(\.shortName)
        #expect(Suggestion.nearest(to: "sunday", among: weekdays) == "sun")
        #expect(Suggestion.nearest(to: "Thursday", among: weekdays) == "thu")
        #expect(Suggestion.nearest(to: "weekend", among: weekdays) == nil)
        let text = #"{ "name": "w", "days": 1, "devices": [ { "id": "p", "user": { "weekdayActivity": { "sunday": 0.5 } }, "widgets": [ { "id": "w", "provider": { "policy": "never" } } ] } ] }"#
        #expect(throws: ScenarioError.self) { try ScenarioLoader.decode(text, file: "w.json") }
        do { _ = try ScenarioLoader.decode(text, file: "w.json") } catch {
            #expect("\(error)".contains("unknown field 'devices[0].user.weekdayActivity.sunday' (did you mean 'sun'?)"), "\(error)")
        }
    }

    /// A fleet moment's kind is checked against the template's widgets (every
    /// device's widget set is drawn from them): a kind they have does not warn.
    @Test func aFleetMomentReloadingAKindOfTheTemplateDoesNotWarn() throws {
        let text = try String(contentsOfFile: Paths.scenario("fleet-news"), encoding: .utf8)
        func withMoment(kind: String) -> String {
            text.replacingOccurrences(
                of: #""moments": ["#,
                with: #""moments": [ { "at": "2026-03-28T20:00", "share": 0.5, "action": "reloadTimelines", "app": "news", "kind": "\#(kind)" },"#)
        }
        #expect(try Self.warnings(withMoment(kind: "com.example.news.headlines")).isEmpty)
        let misspelt = try Self.warnings(withMoment(kind: "com.example.news.headline"))
        #expect(misspelt.count == 1 && misspelt[0].contains("field 'fleet.moments[0].kind': no widget of app \"news\" is of kind \"com.example.news.headline\" (did you mean \"com.example.news.headlines\"?)"), "\(misspelt)")
    }

    /// F13, F25: an interval rounded up to a clock multiple at least as long
    /// as the minimum spacing (after the top of the next hour) is spaced by
    /// the alignment, so it is not a request WidgetKit cannot honour.
    @Test func anAfterAlignedToAtLeastTheMinimumSpacingDoesNotWarn() throws {
        let hourly = ScenarioLoadingTests.scenario(widget: #""provider": {"policy": "after", "after": "1m", "afterAlignment": "1h"}"#)
        #expect(try Self.warnings(hourly).isEmpty)
        let atSpacing = ScenarioLoadingTests.scenario(widget: #""provider": {"policy": "after", "after": "1m", "afterAlignment": "5m"}"#)
        #expect(try Self.warnings(atSpacing).isEmpty)
        // An alignment shorter than the spacing still leaves reloads closer than it.
        let short = ScenarioLoadingTests.scenario(widget: #""provider": {"policy": "after", "after": "1m", "afterAlignment": "2m"}"#)
        #expect(try Self.warnings(short) == [
            "w.json:7:63: field 'devices[0].widgets[0].provider.after': 1m is shorter than the minimum spacing 5m (scheduler.minimumSpacing): WidgetKit keeps a widget's reloads at least 5m apart (F13), so this widget reloads at most every 5m, not every 1m",
        ])
    }

    @Test func aBareNumberDurationWarnsThatItIsSeconds() throws {
        let text = ScenarioLoadingTests.scenario(widget: #""provider": {"policy": "atEnd", "entrySpacing": 900}"#)
        #expect(try Self.warnings(text) == [
            "w.json:7:70: field 'devices[0].widgets[0].provider.entrySpacing': a bare number is seconds: 900 means 15m; write \"15m\" to say so",
        ])
        let five = ScenarioLoadingTests.scenario(widget: #""provider": {"policy": "after", "after": 5}"#)
        let warnings = try Self.warnings(five)
        #expect(warnings.count == 2)
        #expect(warnings.first == "w.json:7:63: field 'devices[0].widgets[0].provider.after': a bare number is seconds: 5 means 5s; write \"5s\" to say so, or \"5m\" for 5 minutes")
        // Zero is zero in any unit.
        #expect(try Self.warnings(ScenarioLoadingTests.scenario(widget: #""provider": {"policy": "atEnd", "jitter": 0}"#)).isEmpty)
    }

    /// A value merged in from a parameters file is that file's: its warning
    /// names the file, with the value's line and column there.
    @Test func aWarningAboutAParametersFilesValueNamesThatFile() throws {
        let parameters = try ParametersFile.decode(Array("{\n  \"scheduler\": { \"minimumSpacing\": 300 }\n}\n".utf8), file: "p.json")
        let text = ScenarioLoadingTests.scenario(widget: #""provider": {"policy": "atEnd", "entrySpacing": 900}"#)
        let document = try ScenarioLoader.decodeDocument(Array(text.utf8), file: "w.json", catalog: .builtIn, parameters: parameters)
        #expect(document.warnings.map(\.description) == [
            "p.json:2:36: field 'scheduler.minimumSpacing': a bare number is seconds: 300 means 5m; write \"5m\" to say so",
            "w.json:7:70: field 'devices[0].widgets[0].provider.entrySpacing': a bare number is seconds: 900 means 15m; write \"15m\" to say so",
        ])
    }

    /// A variant's scheduler settings apply over a parameters file's: a
    /// field both set is the variant's in its runs, and the file's value
    /// (a calibrated one) never reaches them. The load warns, naming the
    /// variant's value; a field only the file or only the variant sets does not.
    @Test func aVariantThatSetsAParametersFilesFieldItselfIsWarnedOf() throws {
        let text = """
            {
              "name": "v",
              "devices": [ { "id": "phone", "widgets": [ { "id": "w", "provider": { "policy": "after", "after": "1h" } } ] } ],
              "variants": [ { "name": "spaced", "scheduler": { "minimumSpacing": "10m", "coalescingWindow": "1m" } },
                            { "name": "quick", "provider": { "after": "30m" } } ]
            }
            """
        let parameters = try ParametersFile.decode(Array(#"{"scheduler": {"minimumSpacing": "20m", "learningDays": 1}}"#.utf8), file: "p.json")
        let document = try ScenarioLoader.decodeDocument(Array(text.utf8), file: "w.json", catalog: .builtIn, parameters: parameters)
        #expect(document.warnings.map(\.description) == [
            "in variant 'spaced': w.json:4:70: field 'variants[0].scheduler.minimumSpacing': the variant sets it itself, and a variant's settings apply over --parameters: its runs use this value, not the one in p.json",
        ])
        #expect(document.variants[0].setup.scheduler.minimumSpacing == 10 * Seconds.minute, "the variant's value, as warned")
        #expect(try Self.warnings(text).isEmpty, "without a parameters file, nothing to warn of")

        // An object merges member by member: the file's `max` reaches the
        // variant's runs, its `min` does not.
        let budget = """
            {
              "name": "v",
              "devices": [ { "id": "phone", "widgets": [ { "id": "w", "provider": { "policy": "after", "after": "1h" } } ] } ],
              "variants": [ { "name": "tight", "scheduler": { "dailyBudget": { "min": 20 } } } ]
            }
            """
        let limits = try ParametersFile.decode(Array(#"{"scheduler": {"dailyBudget": {"min": 30, "max": 30}}}"#.utf8), file: "p.json")
        let merged = try ScenarioLoader.decodeDocument(Array(budget.utf8), file: "w.json", catalog: .builtIn, parameters: limits)
        #expect(merged.warnings.map(\.description) == [
            "in variant 'tight': w.json:4:75: field 'variants[0].scheduler.dailyBudget.min': the variant sets it itself, and a variant's settings apply over --parameters: its runs use this value, not the one in p.json",
        ])
        #expect(merged.variants[0].setup.scheduler.dailyBudgetMin == 20 && merged.variants[0].setup.scheduler.dailyBudgetMax == 30)
    }

    @Test func aVariantsWarningNamesTheVariantAndTheBasesAreNotRepeated() throws {
        let text = """
            {
              "name": "v",
              "devices": [ { "id": "phone", "widgets": [ { "id": "w", "provider": { "policy": "after", "after": "2m" } } ] } ],
              "variants": [ { "name": "spaced", "scheduler": { "minimumSpacing": "1m" } },
                            { "name": "quick", "provider": { "after": "1m" } } ]
            }
            """
        #expect(try Self.warnings(text) == [
            "w.json:3:101: field 'devices[0].widgets[0].provider.after': 2m is shorter than the minimum spacing 5m (scheduler.minimumSpacing): WidgetKit keeps a widget's reloads at least 5m apart (F13), so this widget reloads at most every 5m, not every 2m",
            "in variant 'quick': w.json:5:59: field 'devices[0].widgets[0].provider.after': 1m is shorter than the minimum spacing 5m (scheduler.minimumSpacing): WidgetKit keeps a widget's reloads at least 5m apart (F13), so this widget reloads at most every 5m, not every 1m",
        ])
    }

    @Test func anUnknownUnitListsTheUnitsAndSaysVirtualTimeIsWholeSeconds() {
        let error = ScenarioLoadingTests.error(ScenarioLoadingTests.scenario(widget: #""provider": {"policy": "after", "after": "500ms"}"#))
        #expect(error?.description == "test.json:7:63: field 'devices[0].widgets[0].provider.after': \"500ms\" has the unit \"ms\", which is not one widgetsim knows; allowed: the units d, h, m and s (days, hours, minutes, seconds), as in \"30s\", \"15m\", \"1h30m\" or \"2d\", or a number of seconds; virtual time is whole seconds, so nothing finer than \"1s\"")
        #expect(DurationText.unknownUnit(in: "5 min") == "min")
    }

    @Test func anUnknownUnitInADistributionSaysAFractionOfASecondIsWrittenInSeconds() {
        // A latency's median may be half a second; its drawn times are rounded.
        let error = ScenarioLoadingTests.error(ScenarioLoadingTests.scenario(
            widget: #""provider": {"policy": "atEnd", "latency": {"distribution": "logNormal", "median": "500ms", "p95": "4s"}}"#))
        #expect(error?.description.hasSuffix("\"500ms\" has the unit \"ms\", which is not one widgetsim knows; allowed: the units d, h, m and s (days, hours, minutes, seconds), as in \"30s\", \"15m\", \"1h30m\" or \"2d\", or a number of seconds; a fraction of a second is written in seconds, as in \"0.5s\"") == true, "\(String(describing: error))")
        #expect(error?.description.contains("field 'devices[0].widgets[0].provider.latency.median'") == true)
        #expect(ScenarioLoadingTests.error(ScenarioLoadingTests.scenario(
            widget: #""provider": {"policy": "atEnd", "latency": {"distribution": "logNormal", "median": "0.5s", "p95": "4s"}}"#)) == nil)
        #expect(DurationText.unknownUnit(in: "1h30m") == nil)
        #expect(DurationText.unknownUnit(in: "soon") == nil)
    }
}
