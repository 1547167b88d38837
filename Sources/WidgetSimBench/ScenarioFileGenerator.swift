import Foundation
import WidgetSim

/// Writes a valid scenario file of about a given size, large in one of the
/// ways a real file grows, for timing `widgetsim validate`.
///
/// Promised: every file is valid (`widgetsim validate` exits 0 on it), is no
/// larger than the target, and fills it to within one unit of growth (a
/// device, a script action, a sentence, a key). The same shape, target and
/// seed give the same bytes.
///
/// The format has no free-form objects: every object's keys are a fixed list,
/// and an unknown key is an error. The one place that takes any key is a
/// variant's merge patch (RFC 7396), where `"key": null` removes a field, so
/// removing fields that do not exist leaves the scenario valid. `many-keys`
/// uses that place for one object of very many keys. Nesting is likewise
/// bounded by the schema: the deepest legal path (devices → widgets → truth →
/// activeHours → days) is 8 levels, far below the parser's limit of
/// `JSONParser.maximumDepth`, and every widget here goes that deep.
struct ScenarioFileGenerator {
    enum Shape: String, CaseIterable {
        /// Up to the 1,000-device limit, each with 10 widgets (every field, the deepest nesting) and a script.
        case devices
        /// Devices of 200 widgets each (the per-device limit), with a script.
        case widgets
        /// Devices of 200 widgets whose scripts (50,000 actions each, half the array limit) grow to fill the file.
        case script
        /// A small scenario whose variants' descriptions are most of the file: prose with escapes and non-ASCII text.
        case strings
        /// A small scenario whose variants' scheduler patches remove very many (absent) fields.
        case manyKeys = "many-keys"

        var summary: String {
            switch self {
            case .devices: return "many devices of 10 full widgets and a script"
            case .widgets: return "devices of 200 widgets each"
            case .script: return "devices of 200 widgets, each with a script of 50,000 actions"
            case .strings: return "variants with long descriptions"
            case .manyKeys: return "variants whose merge patches have many null keys"
            }
        }
    }

    var shape: Shape
    var seed: UInt64 = 20_261_122

    /// Writes the file; returns its size and what it holds.
    func write(targetBytes: Int, to path: String) throws(BenchError) -> (bytes: Int, contents: String) {
        var random = RandomStream(seed: seed)
        var text = try FileSink(path: path)
        var units = 0
        /// Appends `prefix`, then units from `next` (separated by `separator`) while they fit, then `suffix`.
        func fill(prefix: String, separator: String, suffix: String, limit: Int = .max, next: (inout RandomStream, Int) -> String) {
            text.append(prefix)
            let end = targetBytes - suffix.utf8.count
            while units < limit {
                let unit = (units == 0 ? "" : separator) + next(&random, units)
                guard text.count + unit.utf8.count <= end else { break }
                text.append(unit)
                units += 1
            }
            text.append(suffix)
        }
        let contents: String
        switch shape {
        case .devices:
            fill(prefix: header(shape.rawValue) + "  \"devices\": [\n", separator: ",\n", suffix: "\n  ]\n}\n", limit: ScenarioLimits.maximumDevices) { random, index in
                device(index, widgets: 10, actions: 60, random: &random)
            }
            contents = "\(units) devices × 10 widgets, 60 script actions each"
        case .widgets:
            fill(prefix: header(shape.rawValue) + "  \"devices\": [\n", separator: ",\n", suffix: "\n  ]\n}\n", limit: ScenarioLimits.maximumDevices) { random, index in
                device(index, widgets: ScenarioLimits.maximumWidgetsPerDevice, actions: 200, random: &random)
            }
            contents = "\(units) devices × \(ScenarioLimits.maximumWidgetsPerDevice) widgets, 200 script actions each"
        case .script:
            // A device that ends with an empty script, opened to fill.
            func opened(_ index: Int, random: inout RandomStream) -> String {
                var open = device(index, widgets: ScenarioLimits.maximumWidgetsPerDevice, actions: 0, random: &random)
                open.removeLast("[]\n    }".utf8.count)
                return open + "[\n"
            }
            // A script is an array, so it holds at most the parser's array limit;
            // past half of it the script goes on in the next device.
            let actionsPerDevice = JSONParser.maximumArrayCount / 2
            fill(prefix: header(shape.rawValue) + "  \"devices\": [\n" + opened(0, random: &random), separator: "", suffix: "\n      ]\n    }\n  ]\n}\n") { random, index in
                let local = index % actionsPerDevice
                let lead = index == 0 ? "" : local == 0 ? "\n      ]\n    },\n" + opened(index / actionsPerDevice, random: &random) : ",\n"
                return lead + "        " + action(local, of: .max, widgets: ScenarioLimits.maximumWidgetsPerDevice, random: &random)
            }
            let devices = (units + actionsPerDevice - 1) / actionsPerDevice
            contents = "\(devices) device(s) × \(ScenarioLimits.maximumWidgetsPerDevice) widgets, \(units) script actions in all"
        case .strings:
            // A string holds at most the parser's string limit, so the prose is
            // spread over variants' descriptions of about 240 KB each.
            fill(prefix: header(shape.rawValue, variants: false) + "  \"variants\": [\n", separator: ",\n",
                 suffix: "\n  ],\n  \"devices\": [\n" + device(0, widgets: 3, actions: 10, random: &random) + "\n  ]\n}\n",
                 limit: ScenarioLimits.maximumVariants) { random, index in
                var prose = ""
                while prose.utf8.count < 240_000 { prose += (prose.isEmpty ? "" : " ") + sentence(prose.utf8.count, random: &random) }
                return "    { \"name\": \"prose-\(padded(index, 2))\", \"description\": \"\(prose)\" }"
            }
            contents = "\(units) variant descriptions of about 240 KB of prose each"
        case .manyKeys:
            // An object holds at most the parser's member limit, so the keys are
            // spread over variants' scheduler patches of 9,000 keys each.
            fill(prefix: header(shape.rawValue, variants: false) + "  \"variants\": [\n", separator: ",\n",
                 suffix: "\n  ],\n  \"devices\": [\n" + device(0, widgets: 3, actions: 10, random: &random) + "\n  ]\n}\n",
                 limit: ScenarioLimits.maximumVariants) { _, index in
                let keys = (0..<9_000).map { "        \"retired.\(padded($0, 7))\": null" }
                return """
                        {
                          "name": "cleaned-up-\(padded(index, 2))",
                          "description": "the same scenario with every retired scheduler setting removed (absent ones are ignored)",
                          "scheduler": {
                    \(keys.joined(separator: ",\n"))
                          }
                        }
                    """
            }
            contents = "\(units) merge patches of 9,000 null keys each"
        }
        text.close()
        return (text.count, contents)
    }

    // MARK: Pieces

    func header(_ name: String, description: Bool = true, variants: Bool = true) -> String {
        var text = """
            {
              "name": "bench-\(name)",

            """
        if description {
            text += "  \"description\": \"A generated scenario for timing 'widgetsim validate' on large files (\(shape.summary)). Nothing here is meant to be run.\",\n"
        }
        text += """
              "seed": \(seed),
              "days": 1,
              "start": "2026-03-02T00:00",
              "utcOffset": "+01:00",
              "scheduler": {
                "budgetModel": "paced",
                "dailyBudget": { "min": 40, "max": 70 },
                "minimumSpacing": "5m",
                "schedulingDelay": { "distribution": "logNormal", "median": "2m", "p95": "30m" },
                "extraTimelineCalls": { "min": 0, "max": 2 }
              },
              "baseName": "as-written",

            """
        if variants {
            text += """
                  "variants": [
                    { "name": "strict-spacing", "description": "reloads at least 15 minutes apart", "scheduler": { "minimumSpacing": "15m" } },
                    { "name": "late-riser", "description": "every user wakes an hour later", "user": { "wake": "08:00" } }
                  ],

                """
        }
        return text
    }

    static let apps = ["weather", "calendar", "news", "stocks", "fitness", "game"]
    static let pages = ["home", "today", "lock"]
    static let families = ["systemSmall", "systemMedium", "systemLarge", "accessoryCircular", "accessoryRectangular", "accessoryInline"]
    static let weekdays = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    static let offsets = ["+01:00", "+00:00", "-05:00", "+09:00", "+05:30", "-08:00"]
    static let cities = ["Paris, Île-de-France", "São Paulo", "Zürich", "Kraków", "Reykjavík", "Tōkyō", "Montréal", "Köln"]

    func device(_ index: Int, widgets: Int, actions: Int, random: inout RandomStream) -> String {
        let isPad = index % 5 == 4
        let activity = (0..<24).map { hour in FixedDecimal.format(hour < 6 ? 0.05 : Double(random.nextInt(in: 2...30)) / 10, decimals: 2) }
        var lines = [
            "    {",
            "      \"id\": \"device-\(padded(index, 4))\",",
            "      \"model\": \"\(isPad ? "iPad" : "iPhone")\",",
            "      \"utcOffset\": \"\(ScenarioFileGenerator.offsets[index % ScenarioFileGenerator.offsets.count])\",",
            "      \"user\": { \"wake\": \"0\(random.nextInt(in: 6...8)):\(padded(random.nextInt(in: 0...59), 2))\", \"sleep\": \"23:\(padded(random.nextInt(in: 0...59), 2))\", \"dayJitter\": \"30m\", "
                + "\"hourlyActivity\": [\(activity.joined(separator: ", "))], \"locationChangesPerDay\": 2, \"systemChangesPerDay\": 0.02 },",
            "      \"pages\": [ { \"name\": \"home\", \"viewsPerDay\": 40 }, { \"name\": \"today\", \"viewsPerDay\": 12 }, { \"name\": \"lock\", \"viewsPerDay\": 60 } ],",
            "      \"apps\": [",
            "        { \"id\": \"weather\", \"sessionsPerDay\": 1.5, \"sessionLength\": { \"distribution\": \"exponential\", \"mean\": \"2m\" }, \"foregroundReload\": \"all\" },",
            "        { \"id\": \"calendar\", \"sessionsPerDay\": 3, \"sessionLength\": \"1m\", \"foregroundReload\": \"kind:com.example.calendar.up-next\" },",
            "        { \"id\": \"news\", \"sessionsPerDay\": 2, \"mediaSessionsPerDay\": 0.5, \"mediaSessionLength\": \"40m\", \"mediaReloadInterval\": \"4m\" },",
            "        { \"id\": \"stocks\", \"sessionsPerDay\": 4, \"sessionLength\": { \"distribution\": \"uniform\", \"min\": \"30s\", \"max\": \"5m\" } },",
            "        { \"id\": \"fitness\", \"foregroundReload\": \"none\" },",
            "        { \"id\": \"game\", \"swift\": \"characterApp\" }",
            "      ],",
            "      \"widgets\": [",
        ]
        lines.append((0..<widgets).map { widget($0, isPad: isPad, random: &random) }.joined(separator: ",\n"))
        lines.append("      ],")
        let script = (0..<actions).map { "        " + action($0, of: actions, widgets: widgets, random: &random) }
        lines.append(script.isEmpty ? "      \"script\": []" : "      \"script\": [\n" + script.joined(separator: ",\n") + "\n      ]")
        lines.append("    }")
        return lines.joined(separator: "\n")
    }

    func widget(_ index: Int, isPad: Bool, random: inout RandomStream) -> String {
        let app = ScenarioFileGenerator.apps[index % ScenarioFileGenerator.apps.count]
        let id = "\(app)-\(padded(index, 3))"
        let family = isPad && index % 7 == 6 ? "systemExtraLarge" : ScenarioFileGenerator.families[index % ScenarioFileGenerator.families.count]
        let page = ScenarioFileGenerator.pages[index % ScenarioFileGenerator.pages.count]
        let city = ScenarioFileGenerator.cities[random.nextInt(below: ScenarioFileGenerator.cities.count)]
        let provider: String
        switch index % 4 {
        case 0:
            provider = """
                { "entries": \(random.nextInt(in: 1...24)), "entrySpacing": "1h", "alignEntries": true, "forecasts": true, "policy": "after", "after": "\(random.nextInt(in: 15...90))m", \
                "afterAlignment": "15m", "jitter": "5m", "skipInactiveHours": true, \
                "latency": { "distribution": "logNormal", "median": "1s", "p95": "4s" }, "failureRate": 0.02, "retryAfterFailure": "15m", \
                "backgroundSessionProbability": 0.1, "backgroundSessionDuration": { "distribution": "exponential", "mean": "10m" } }
                """
        case 1:
            var offset = 0
            let offsets = (0..<random.nextInt(in: 4...16)).map { _ in
                offset += random.nextInt(in: 60...3_600)
                return String(offset)
            }
            provider = """
                { "entryOffsets": [0, \(offsets.joined(separator: ", "))], "policy": "atEnd", \
                "latency": { "distribution": "uniform", "min": "1s", "max": "3s" }, "failureRate": 0.01 }
                """
        case 2:
            provider = "{ \"entries\": 1, \"policy\": \"never\", \"latency\": { \"distribution\": \"fixed\", \"value\": \"2s\" } }"
        default:
            provider = "{ \"swift\": \"characterDetail\", \"latency\": { \"distribution\": \"exponential\", \"mean\": \"1.5s\" }, \"failureRate\": 0.05 }"
        }
        // Inside the run's one day, in both spellings: a date and an offset.
        var hour = 0
        let changes = (0..<random.nextInt(in: 2...6)).map { _ in
            hour += random.nextInt(in: 1...3)
            return hour % 2 == 0
                ? "\"2026-03-02T\(padded(hour, 2)):00\""
                : "\"\(hour)h\(random.nextInt(in: 0...59))m\""
        }
        let weekdays = ScenarioFileGenerator.weekdays.prefix(random.nextInt(in: 1...7)).map { "\"\($0)\"" }
        return """
                    {
                      "id": "\(id)", "kind": "com.example.\(app).\(id)", "family": "\(family)", "app": "\(app)", "page": "\(page)",
                      "configuration": "\(city) — \\"\(page)\\" #\(index)", "tapsPerView": 0.05, "launchesAppPerView": 0.02, "addedAt": "\(random.nextInt(in: 0...12))h",
                      "provider": \(provider),
                      "truth": {
                        "changeEvery": "\(random.nextInt(in: 5...120))m", "activeHours": { "days": [\(weekdays.joined(separator: ", "))], "from": "09:30", "to": "16:00" },
                        "scheduledChanges": [\(changes.joined(separator: ", "))], "forecastHorizon": "6h", "dynamicDateText": false,
                        "randomChangesPerDay": \(random.nextInt(in: 0...8)), "onRandomChange": "\(["none", "push", "reloadKind", "reloadAll"][index % 4])", "changesWithLocation": \(index % 9 == 0)
                      }
                    }
            """
    }

    /// One scripted action; `index` of `count` spreads them over the run's one day in time order.
    /// (One day, so that even the largest file stays inside `validate`'s run estimate: see RunLimits.)
    func action(_ index: Int, of count: Int, widgets: Int, random: inout RandomStream) -> String {
        let span = Seconds.day - 1
        let at = count == .max ? min(span, index * 9 + random.nextInt(in: 0...8)) : index * span / max(1, count)
        let when = index % 2 == 0 ? String(at) : "\"\(at / Seconds.day)d\(at % Seconds.day / Seconds.hour)h\(at % Seconds.hour / Seconds.minute)m\(at % Seconds.minute)s\""
        let app = ScenarioFileGenerator.apps[random.nextInt(below: 4)]
        let widget = "\(ScenarioFileGenerator.apps[0])-\(padded(6 * random.nextInt(below: (widgets + 5) / 6), 3))"
        let what: String
        switch random.nextInt(below: 10) {
        case 0: what = "\"action\": \"view\", \"page\": \"\(ScenarioFileGenerator.pages[random.nextInt(below: 3)])\""
        case 1: what = "\"action\": \"reloadTimelines\", \"app\": \"\(app)\", \"kind\": \"com.example.\(app).\(app)-000\""
        case 2: what = "\"action\": \"reloadAllTimelines\", \"app\": \"\(app)\""
        case 3: what = "\"action\": \"push\", \"app\": \"\(app)\""
        case 4: what = "\"action\": \"appSession\", \"app\": \"\(app)\", \"length\": \"\(random.nextInt(in: 1...20))m\""
        case 5: what = "\"action\": \"mediaSession\", \"app\": \"news\", \"length\": \"40m\""
        case 6: what = "\"action\": \"tap\", \"widget\": \"\(widget)\""
        case 7: what = "\"action\": \"truthChange\", \"widget\": \"\(widget)\""
        case 8: what = "\"action\": \"locationChange\""
        default: what = "\"action\": \"systemChange\""
        }
        return "{ \"at\": \(when), \(what) }"
    }

    static let prose = [
        "The forecast widget asks for a new timeline every hour, but the budget of 40 to 70 reloads a day (F8) decides when it runs.",
        "A user in Zürich opens the weather app at 07:15, which reloads every widget of the app for free (F17).",
        "Entries are spaced \\\"on the hour\\\", so a view at 10:59 shows data fetched at 10:00 — almost an hour stale.",
        "Kraków, São Paulo and Tōkyō each get their own device, time zone and waking hours.\\nThe simulator keeps one clock.",
        "Tabs\\tand escaped slashes \\/ appear in descriptions pasted from other tools; so do \\u00e9 and \\u2014 written as escapes.",
        "Rain now 🌦 and later \\ud83c\\udf27: a surrogate pair in an escape must decode to one scalar.",
        "When the pacing bucket is empty, a reload waits for its turn; it is not withheld, and its budget is not spent.",
    ]

    func sentence(_ index: Int, random: inout RandomStream) -> String {
        "(\(index)) " + ScenarioFileGenerator.prose[random.nextInt(below: ScenarioFileGenerator.prose.count)]
    }

    func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
