import Foundation
import Testing
import WidgetSim

/// Every kind of bad input gets a message naming the file, the field (with
/// line and column) and what is allowed, and a sysexits code; the README's
/// table lists the same messages and codes, and this test keeps them in step.
@Suite("Bad input")
struct BadInputTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        /// The scenario written to `bad.json` in a fresh directory, if any.
        var scenario: String?
        var arguments: [String]
        var code: Int32
        /// The first line of standard error, without "error: " (paths relative to the directory).
        var message: String
        /// The message's tail depends on the machine (its memory): compare the start only.
        var prefixOnly = false
        /// Other files written to the directory first, by name.
        var files: [String: [UInt8]] = [:]
        /// A named pipe created in the directory first, that nobody writes to.
        var fifo: String?

        var testDescription: String { name }
    }

    /// A small valid scenario as literal text, with fields spliced in at the
    /// top level, into the device, the widget or its provider. Literal text
    /// keeps the line and column of each field the same on every platform.
    static func scenario(top: String = "", device: String = "", widget: String = "", provider: String = "") -> String {
        """
        {
          "name": "bad",\(top)
          "devices": [
            {
              "id": "phone",\(device)
              "widgets": [
                { "id": "w",\(widget) "provider": { "policy": "atEnd"\(provider) } }
              ]
            }
          ]
        }
        """
    }

    static let simulate = ["simulate", "bad.json"]

    /// A fleet of one widget a device over a year.
    static func yearLongFleet(devices: Int) -> String {
        """
        {
          "name": "bad", "days": 366,
          "fleet": { "devices": \(devices), "device": { "widgets": [ { "id": "w", "provider": { "policy": "atEnd" } } ] } }
        }
        """
    }

    /// Ten million devices of `yearLongFleet` over a year, however they
    /// were asked for.
    static let fleetPastTheEventLimit = "bad.json: this fleet run would simulate about 1,389.2 billion events over its 1 variant, more than the 100 billion one fleet process may (at most about two hours on 2 cores, the estimate being an upper bound); split it into at least 14 shards with --shard i/14 --partial <file> and merge them (README, \"Fleets\"), or lower --devices or --days"

    /// A small valid fleet scenario with one moment spliced in.
    static func fleet(moment: String) -> String {
        """
        {
          "name": "bad",
          "fleet": { "devices": 10, "device": { "widgets": [ { "id": "w", "provider": { "policy": "atEnd" } } ] },
            "moments": [ \(moment) ] }
        }
        """
    }

    static let cases: [Case] = [
        Case(name: "malformed JSON", scenario: "{\n  \"name\": \"bad\",,\n}", arguments: simulate, code: 65, 
             message: "bad.json:2:17: malformed JSON: unexpected ','; expected a field name in double quotes"),
        Case(name: "wrong type", scenario: scenario(top: #" "days": "seven","#), arguments: simulate, code: 65, 
             message: "bad.json:2:26: field 'days' must be a whole number, found a string"),
        Case(name: "missing required field", scenario: "{\n  \"name\": \"bad\"\n}", arguments: simulate, code: 65, 
             message: "bad.json:1:1: missing required field 'devices'"),
        Case(name: "unknown field", scenario: scenario(provider: #", "polcy": "after""#), arguments: simulate, code: 65, 
             message: "bad.json:7:55: unknown field 'devices[0].widgets[0].provider.polcy' (did you mean 'policy'?); allowed fields here: entries, entryOffsets, entrySpacing, alignEntries, forecasts, policy, after, afterAlignment, jitter, skipInactiveHours, schedule, retryAfterFailure, latency, failureRate, backgroundSessionProbability, backgroundSessionDuration, swift"),
        Case(name: "unknown policy", scenario: scenario().replacingOccurrences(of: #""atEnd""#, with: #""atend""#), arguments: simulate, code: 65, 
             message: "bad.json:7:46: field 'devices[0].widgets[0].provider.policy': unknown policy \"atend\" (did you mean \"atEnd\"?); allowed: \"atEnd\", \"after\" (with \"after\": a duration), \"never\""),
        Case(name: "unknown family", scenario: scenario(widget: #" "family": "systemHuge","#), arguments: simulate, code: 65, 
             message: "bad.json:7:32: field 'devices[0].widgets[0].family': unknown value \"systemHuge\" (did you mean \"systemLarge\"?); allowed: \"systemSmall\", \"systemMedium\", \"systemLarge\", \"systemExtraLarge\", \"accessoryCircular\", \"accessoryRectangular\", \"accessoryInline\""),
        Case(name: "unknown budget model", scenario: scenario(top: #" "scheduler": { "budgetModel": "rolling" },"#), arguments: simulate, code: 65, 
             message: "bad.json:2:48: field 'scheduler.budgetModel': unknown value \"rolling\"; allowed: \"paced\", \"rollingWindow\", \"tokenBucket\", \"midnightReset\", \"unlimited\""),
        Case(name: "unknown trigger in a script", scenario: scenario(device: #" "script": [ { "at": "1h", "action": "pushh" } ],"#), arguments: simulate, code: 65, 
             message: "bad.json:5:58: field 'devices[0].script[0].action': unknown action \"pushh\" (did you mean \"push\"?); allowed: \"view\", \"reloadTimelines\", \"reloadAllTimelines\", \"push\", \"appSession\", \"mediaSession\", \"tap\", \"truthChange\", \"locationChange\", \"systemChange\""),
        Case(name: "script entry with both at and daily", scenario: scenario(device: #" "script": [ { "at": "1h", "daily": "07:30", "action": "systemChange" } ],"#), arguments: simulate, code: 65,
             message: "bad.json:5:42: field 'devices[0].script[0].at': both \"at\" and \"daily\"; allowed: either \"at\" (an instant, or a list of instants) or \"daily\" (a local time \"HH:MM[:SS]\", with \"days\" for some weekdays)"),
        Case(name: "unknown weekday in a daily script", scenario: scenario(device: #" "script": [ { "daily": "18:00", "days": ["mon", "fry"], "action": "systemChange" } ],"#), arguments: simulate, code: 65,
             message: "bad.json:5:70: field 'devices[0].script[0].days[1]': unknown weekday \"fry\" (did you mean \"fri\"?); allowed: \"mon\", \"tue\", \"wed\", \"thu\", \"fri\", \"sat\", \"sun\""),
        Case(name: "fixture list out of order", scenario: scenario(device: #" "script": [ { "at": ["2h", "1h"], "action": "systemChange" } ],"#), arguments: simulate, code: 65,
             message: "bad.json:5:49: field 'devices[0].script[0].at[1]': 3600 s is not after the previous instant at 7200 s; allowed: instants in time order, each once"),
        Case(name: "hourly shape of the wrong length", scenario: scenario(widget: #" "truth": { "randomChangesPerDay": 12, "randomChangesByHour": [1, 1, 1] },"#), arguments: simulate, code: 65,
             message: "bad.json:7:83: field 'devices[0].widgets[0].truth.randomChangesByHour': 3 values; allowed: exactly 24 non-negative numbers, one per local hour"),
        Case(name: "moment share above 1", scenario: fleet(moment: #"{ "at": "10h", "share": 1.5, "action": "systemChange" }"#), arguments: simulate, code: 65,
             message: "bad.json:4:42: field 'fleet.moments[0].share': 1.5 is out of range; allowed: numbers from 0 to 1"),
        Case(name: "moment naming a widget", scenario: fleet(moment: #"{ "at": "10h", "share": 1, "action": "tap" }"#), arguments: simulate, code: 65,
             message: "bad.json:4:55: field 'fleet.moments[0].action': action \"tap\" names a widget, and a fleet's widget sets give devices different widgets; allowed: \"view\", \"reloadTimelines\", \"reloadAllTimelines\", \"push\", \"appSession\", \"mediaSession\", \"locationChange\", \"systemChange\""),
        Case(name: "zero interval", scenario: scenario().replacingOccurrences(of: #""atEnd""#, with: #""after", "after": "0s""#), arguments: simulate, code: 65, 
             message: "bad.json:7:64: field 'devices[0].widgets[0].provider.after': 0s is out of range; allowed: a duration such as \"30s\", \"15m\", \"1h30m\" or \"2d\", or a number of seconds, from 1s to 30d"),
        Case(name: "unknown unit in a duration", scenario: scenario().replacingOccurrences(of: #""atEnd""#, with: #""after", "after": "500ms""#), arguments: simulate, code: 65,
             message: "bad.json:7:64: field 'devices[0].widgets[0].provider.after': \"500ms\" has the unit \"ms\", which is not one widgetsim knows; allowed: the units d, h, m and s (days, hours, minutes, seconds), as in \"30s\", \"15m\", \"1h30m\" or \"2d\", or a number of seconds; virtual time is whole seconds, so nothing finer than \"1s\""),
        Case(name: "negative duration", scenario: scenario(provider: #", "entrySpacing": "-5m""#), arguments: simulate, code: 65, 
             message: "bad.json:7:71: field 'devices[0].widgets[0].provider.entrySpacing': \"-5m\" is not a duration; allowed: a duration such as \"30s\", \"15m\", \"1h30m\" or \"2d\", or a number of seconds, from 1s to 30d"),
        Case(name: "days zero", scenario: scenario(top: #" "days": 0,"#), arguments: simulate, code: 65, 
             message: "bad.json:2:26: field 'days': 0 is out of range; allowed: whole numbers 1...366"),
        Case(name: "days absurd", scenario: scenario(top: #" "days": 5000,"#), arguments: simulate, code: 65, 
             message: "bad.json:2:26: field 'days': 5000 is out of range; allowed: whole numbers 1...366"),
        Case(name: "budget minimum above maximum", scenario: scenario(top: #" "scheduler": { "dailyBudget": { "min": 70, "max": 40 } },"#), arguments: simulate, code: 65, 
             message: "bad.json:2:48: field 'scheduler.dailyBudget': min 70 is above max 40; allowed: min ≤ max"),
        Case(name: "daily budget given as a number", scenario: scenario(top: #" "scheduler": { "dailyBudget": 30 },"#), arguments: simulate, code: 65,
             message: #"bad.json:2:48: field 'scheduler.dailyBudget' must be an object {"min": n, "max": n} (whole numbers 1...10000, either may be left out; min ≤ max), found a number"#),
        Case(name: "probability outside [0, 1]", scenario: scenario(provider: #", "failureRate": 1.5"#), arguments: simulate, code: 65, 
             message: "bad.json:7:70: field 'devices[0].widgets[0].provider.failureRate': 1.5 is out of range; allowed: numbers from 0 to 1"),
        Case(name: "timeline entries out of order", scenario: scenario(provider: #", "entryOffsets": ["0m", "1h", "30m"]"#), arguments: simulate, code: 65, 
             message: "bad.json:7:84: field 'devices[0].widgets[0].provider.entryOffsets[2]': entry at 30m is out of order, after 1h; allowed: strictly increasing offsets after the fetch"),
        Case(name: "timeline entries duplicated", scenario: scenario(provider: #", "entryOffsets": ["0m", "1h", "1h"]"#), arguments: simulate, code: 65, 
             message: "bad.json:7:84: field 'devices[0].widgets[0].provider.entryOffsets[2]': duplicate entry at 1h; allowed: strictly increasing offsets after the fetch"),
        Case(name: "schedule rule without a condition", scenario: scenario(provider: #", "schedule": [ { "policy": "never" } ]"#), arguments: simulate, code: 65,
             message: "bad.json:7:69: field 'devices[0].widgets[0].provider.schedule[0]': a rule without a condition would always apply, hiding the provider's own policy and every later rule; allowed: \"days\", \"from\"/\"to\" or \"whenTruth\" in every rule; the provider's \"policy\" applies when no rule does"),
        Case(name: "schedule rule hidden by an earlier one", scenario: scenario(provider: #", "schedule": [ { "from": "07:00", "to": "10:00", "policy": "never" }, { "days": ["mon"], "from": "08:00", "to": "09:00", "policy": "after", "after": "5m" } ]"#), arguments: simulate, code: 65,
             message: "bad.json:7:124: field 'devices[0].widgets[0].provider.schedule[1]': this rule never applies: devices[0].widgets[0].provider.schedule[0] always applies first; allowed: rules that each apply at some time no earlier rule covers (put the narrower rule first)"),
        Case(name: "schedule rule on the truth without active hours", scenario: scenario(provider: #", "schedule": [ { "whenTruth": "inactive", "policy": "until", "until": "06:00" } ]"#), arguments: simulate, code: 65,
             message: "bad.json:7:84: field 'devices[0].widgets[0].provider.schedule[0].whenTruth': the widget's truth has no activeHours, so it is never active or inactive; allowed: \"whenTruth\" with \"activeHours\" in the widget's truth"),
        Case(name: "schedule window that is empty", scenario: scenario(provider: #", "schedule": [ { "from": "07:00", "to": "07:00", "policy": "never" } ]"#), arguments: simulate, code: 65,
             message: "bad.json:7:94: field 'devices[0].widgets[0].provider.schedule[0].to': the window is empty: it opens and closes at 07:00; allowed: \"to\" other than \"from\" (\"to\" before \"from\" crosses midnight), or neither for the whole day"),
        Case(name: "schedule rule with until and another policy", scenario: scenario(provider: #", "schedule": [ { "from": "22:00", "to": "06:00", "policy": "after", "after": "1h", "until": "06:00" } ]"#), arguments: simulate, code: 65,
             message: "bad.json:7:146: field 'devices[0].widgets[0].provider.schedule[0].until': \"until\" is set but the rule's policy is \"after\"; allowed: \"until\" only with \"policy\": \"until\""),
        Case(name: "more entries than a scenario may ask for", scenario: scenario(provider: #", "entries": 10001"#), arguments: simulate, code: 65, 
             message: "bad.json:7:66: field 'devices[0].widgets[0].provider.entries': 10001 is out of range; allowed: whole numbers 1...10000"),
        Case(name: "invalid start date", scenario: scenario(top: #" "start": "2026-02-30","#), arguments: simulate, code: 65, 
             message: "bad.json:2:27: field 'start': \"2026-02-30\" is not a valid local date and time; allowed: \"YYYY-MM-DD\" or \"YYYY-MM-DDTHH:MM[:SS]\" (local time, no offset; see utcOffset), in the years 1970...2999"),
        Case(name: "invalid UTC offset", scenario: scenario(top: #" "utcOffset": "+25:00","#), arguments: simulate, code: 65, 
             message: "bad.json:2:31: field 'utcOffset': \"+25:00\" is out of range; allowed: \"+HH:MM\" or \"-HH:MM\" from \"-12:00\" to \"+14:00\" (\"Z\" for UTC)"),
        Case(name: "empty widget list", scenario: "{\n  \"name\": \"bad\",\n  \"devices\": [ { \"id\": \"phone\", \"widgets\": [] } ]\n}", arguments: simulate, code: 65, 
             message: "bad.json:3:44: field 'devices[0].widgets': the list is empty; allowed: at least one widget"),
        Case(name: "duplicate widget ids", scenario: scenario().replacingOccurrences(of: #"{ "id": "w","#, with: #"{ "id": "w", "provider": { "policy": "never" } }, { "id": "w","#), arguments: simulate, code: 65, 
             message: "bad.json:7:67: field 'devices[0].widgets[1].id': duplicate widget id \"w\"; allowed: ids unique within the device"),
        Case(name: "missing scenario file", scenario: nil, arguments: ["simulate", "missing.json"], code: 66, 
             message: "missing.json: no such scenario file"),
        Case(name: "missing parameters file", scenario: scenario(), arguments: simulate + ["--parameters", "missing-parameters.json"], code: 66,
             message: "missing-parameters.json: no such parameters file"),
        Case(name: "unknown scenario name", scenario: nil, arguments: ["simulate", "wether"], code: 66,
             message: "Scenarios/wether.json: no scenario named 'wether'; did you mean 'weather'?", files: ["Scenarios/weather.json": Array("{}".utf8)]),
        Case(name: "scenario directory given as a scenario", scenario: nil, arguments: ["simulate", "Scenarios"], code: 66,
             message: "Scenarios: it is a directory, not a scenario; give a scenario's name (as in 'weather', looked up in Scenarios/) or the path of its .json file",
             files: ["Scenarios/weather.json": Array("{}".utf8)]),
        Case(name: "scenario file named without its directory", scenario: nil, arguments: ["simulate", "news.json"], code: 66,
             message: "news.json: no such scenario file; did you mean 'Scenarios/news.json', or the name 'news'?",
             files: ["Scenarios/news.json": Array("{}".utf8)]),
        Case(name: "unwritable output directory", scenario: scenario(), arguments: simulate + ["--out", "afile/reports"], code: 73, 
             message: "afile: cannot create the report directory: it is a file, not a directory"),
        Case(name: "output directory holding other files", scenario: scenario(), arguments: simulate + ["--out", "mine"], code: 73,
             message: "mine: not a report directory: it holds files but no widgetsim report (summary.md, comparison.md, sensitivity.md, fleet.md, calibration.md); give a new or empty directory, or one widgetsim wrote",
             files: ["mine/notes.txt": Array("mine".utf8)]),
        Case(name: "current directory as output", scenario: scenario(), arguments: simulate + ["--out", "."], code: 73,
             message: ".: cannot create the report directory: it is the current directory, or holds it: the new reports replace the report directory whole, which would leave you in a deleted directory; give a directory below it, such as Reports/<name>"),
        Case(name: "standard output as output", scenario: scenario(), arguments: simulate + ["--out", "-"], code: 64,
             message: "option '--out' takes a directory, and widgetsim writes none to standard output ('-'); for a directory named '-', give ./-"),
        Case(name: "unknown option", scenario: scenario(), arguments: simulate + ["--sede", "3"], code: 64, 
             message: "unknown option '--sede' for 'simulate'; did you mean '--seed'?"),
        Case(name: "unknown subcommand", scenario: nil, arguments: ["simulat", "bad.json"], code: 64, 
             message: "unknown command 'simulat'; did you mean 'simulate'?"),
        Case(name: "unknown variant", scenario: scenario(top: #" "variants": [ { "name": "fast", "provider": { "policy": "after", "after": "15m" } } ],"#),
             arguments: simulate + ["--variant", "fsat"], code: 64,
             message: "option '--variant': no variant 'fsat' in bad; did you mean 'fast'?; allowed: base, fast"),
        Case(name: "unknown widget to compare", scenario: scenario(top: #" "variants": [ { "name": "fast", "provider": { "policy": "after", "after": "15m" } } ],"#),
             arguments: ["compare", "bad.json", "--widget", "x"], code: 64,
             message: "option '--widget': no widget 'x' in bad; did you mean 'w'?; allowed: w"),
        Case(name: "option given for a value", scenario: scenario(), arguments: simulate + ["--out", "--quiet"], code: 64,
             message: "option '--out' needs a value <dir>, and got the option '--quiet'; a value that starts with '-' is written --out=--quiet"),
        Case(name: "option without its value", scenario: scenario(), arguments: simulate + ["--days"], code: 64, 
             message: "option '--days' needs a value <n>"),
        Case(name: "option value out of range", scenario: scenario(), arguments: simulate + ["--days", "0"], code: 64, 
             message: "option '--days' must be a whole number from 1 to 366, got '0'"),
        Case(name: "more memory than the machine has", scenario: manyDevices, arguments: simulate, code: 65, 
             message: "bad.json: the run would keep about 51.5 GiB of rows (1000 devices × 366 days); the limit on this machine is ", prefixOnly: true),
        Case(name: "more events than a device may handle", scenario: busyDevice, arguments: simulate, code: 65,
             message: "bad.json: one device would handle about 3.1 billion events in 366 days, more than the 400 million one device may; most come from devices[0].widgets[*].truth.randomChangesPerDay (20 widgets), 100% of the events; lower it, or the days"),
        Case(name: "more pages than a device may have", scenario: scenario(device: manyPages, widget: #" "page": "p0","#), arguments: simulate, code: 65,
             message: "bad.json:5:31: field 'devices[0].pages': 201 pages; allowed: 1...200 pages per device"),
        Case(name: "script repeated past the action limit", scenario: longScript, arguments: simulate, code: 65,
             message: "bad.json: devices[0].script over 366 days would give one device 109,800 scripted actions (each \"daily\" entry once a day), more than the 100,000 one device may; use fewer script entries, or fewer days"),
        Case(name: "calibration past the action limit", scenario: calibratedScript, arguments: ["calibrate", "long.csv", "--scenario", "bad.json"], code: 65,
             message: "bad.json: calibrating against long.csv simulates 275 days, as long as the log: devices[0].script over 275 days would give one device 110,000 scripted actions (each \"daily\" entry once a day), more than the 100,000 one device may; use fewer script entries, or fewer days",
             files: ["long.csv": Array(longDeviceLog.utf8)]),
        Case(name: "several active windows",
             scenario: scenario(widget: #" "truth": { "changeEvery": "1h", "activeHours": [ { "from": "07:00", "to": "09:00" } ] },"#),
             arguments: simulate, code: 65,
             message: "bad.json:7:69: field 'devices[0].widgets[0].truth.activeHours': a list of windows; allowed: one window a day, {\"from\": \"HH:MM\", \"to\": \"HH:MM\", \"days\": [...]}; for changes that come at several times of day, randomChangesByHour (weights per local hour) or script truthChange actions"),
        Case(name: "hourly weight too small to carry",
             scenario: scenario(widget: #" "truth": { "randomChangesByHour": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5e-324, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] },"#),
             arguments: simulate, code: 65,
             message: "bad.json:7:93: field 'devices[0].widgets[0].truth.randomChangesByHour[12]': 5e-324 is too small a weight; allowed: 0, or a number from 1e-9 to 1000 (the weights are relative)"),
        Case(name: "analysis past the event limit",
             scenario: scenario(top: #" "days": 366, "variants": [ { "name": "v", "provider": { "policy": "after", "after": "1h" } } ],"#,
                                widget: #" "truth": { "randomChangesPerDay": 1000 },"#),
             arguments: ["sensitivity", "bad.json", "--runs", "100"], code: 64,
             message: "bad.json: the sensitivity analysis would make 25,200 runs, about 14.9 billion events in all, more than the 5 billion one analysis may; use fewer --runs or --trajectories, or fewer --days"),
        // Too large with the defaults too: the scenario, not --trajectories, makes it so.
        Case(name: "analysis too large with the defaults too",
             scenario: """
                {
                  "name": "bad", "days": 366, "variants": [ { "name": "v", "provider": { "policy": "after", "after": "1h" } } ],
                  "devices": [ { "id": "phone", "widgets": [
                    { "id": "w", "truth": { "randomChangesPerDay": 10000 }, "provider": { "policy": "atEnd" } },
                    { "id": "x", "truth": { "randomChangesPerDay": 10000 }, "provider": { "policy": "atEnd" } } ] } ]
                }
                """,
             arguments: ["sensitivity", "bad.json", "--trajectories", "4"], code: 65,
             message: "bad.json: the sensitivity analysis would make 760 runs, about 5.9 billion events in all, more than the 5 billion one analysis may; use fewer --runs or --trajectories, or fewer --days"),
        // A fleet within every per-device limit could still run for weeks.
        // `--out` names a file, which the run would refuse (73) only after
        // the limit check: without it, the case fails at once, not in weeks.
        Case(name: "fleet past the event limit", scenario: yearLongFleet(devices: 10_000_000),
             arguments: ["fleet", "bad.json", "--out", "bad.json"], code: 65, message: fleetPastTheEventLimit),
        Case(name: "fleet past the event limit by --devices", scenario: yearLongFleet(devices: 1_000),
             arguments: ["fleet", "bad.json", "--devices", "10000000", "--out", "bad.json"], code: 64, message: fleetPastTheEventLimit),
        // --days given, but the scenario as written is over the limit too: its fault (65), not the option's.
        Case(name: "fleet past the event limit as written, --days given", scenario: yearLongFleet(devices: 10_000_000),
             arguments: ["fleet", "bad.json", "--days", "300", "--out", "bad.json"], code: 65,
             message: "bad.json: this fleet run would simulate about 1,139.4 billion events over its 1 variant, more than the 100 billion one fleet process may (at most about two hours on 2 cores, the estimate being an upper bound); split it into at least 12 shards with --shard i/12 --partial <file> and merge them (README, \"Fleets\"), or lower --devices or --days"),
        Case(name: "UTC offset with two signs", scenario: scenario(top: #" "utcOffset": "+-1:00","#), arguments: simulate, code: 65,
             message: "bad.json:2:31: field 'utcOffset': \"+-1:00\" is not a UTC offset; allowed: \"+HH:MM\" or \"-HH:MM\" from \"-12:00\" to \"+14:00\" (\"Z\" for UTC)"),
        Case(name: "clock time with a sign", scenario: scenario(device: #" "user": { "wake": "+7:00" },"#), arguments: simulate, code: 65,
             message: "bad.json:5:40: field 'devices[0].user.wake': \"+7:00\" is not a clock time; allowed: a local time \"HH:MM[:SS]\" from \"00:00\" to \"24:00\""),
        Case(name: "start year out of range", scenario: scenario(top: #" "start": "0026-03-02","#), arguments: simulate, code: 65,
             message: "bad.json:2:27: field 'start': the year 26 is out of range; allowed: \"YYYY-MM-DD\" or \"YYYY-MM-DDTHH:MM[:SS]\" (local time, no offset; see utcOffset), in the years 1970...2999"),
        Case(name: "empty app list", scenario: scenario(device: #" "apps": [],"#), arguments: simulate, code: 65,
             message: "bad.json:5:30: field 'devices[0].apps': the list is empty; allowed: at least one app, or leave \"apps\" out for one default app"),
        Case(name: "scenario in UTF-16", scenario: nil, arguments: simulate, code: 65, message: "bad.json: the file is UTF-16 text (it starts with a UTF-16 byte-order mark); save it as UTF-8",
             files: ["bad.json": [0xFF, 0xFE] + Array(#"{"name":"bad"}"#.utf8).flatMap { [$0, 0] }]),
        Case(name: "scenario in UTF-32", scenario: nil, arguments: simulate, code: 65, message: "bad.json: the file is UTF-32 text (it starts with a UTF-32 byte-order mark); save it as UTF-8",
             files: ["bad.json": [0xFF, 0xFE, 0, 0] + Array(#"{"name":"bad"}"#.utf8).flatMap { [$0, 0, 0, 0] }]),
        Case(name: "scenario that is a named pipe", scenario: nil, arguments: simulate, code: 66, message: "bad.json: cannot read the file: it is a named pipe (FIFO), not a regular file", fifo: "bad.json"),
        Case(name: "scenario file too large", scenario: nil, arguments: simulate, code: 65, message: "bad.json: larger than 16 MiB, the most a scenario file may be",
             files: ["bad.json": Array(repeating: UInt8(ascii: " "), count: 16 * 1_048_576 + 1)]),
        Case(name: "object with too many fields", scenario: "{" + (0...10_000).map { "\"k\($0)\": 0" }.joined(separator: ", ") + "}",
             arguments: simulate, code: 65, message: "bad.json:1:118892: malformed JSON: an object with more than 10000 fields, the most a scenario may hold"),
        Case(name: "output path that is a file", scenario: scenario(), arguments: simulate + ["--out", "afile"], code: 73, message: "afile: cannot create the report directory: it is a file, not a directory"),
        Case(name: "check option out of range", scenario: nil, arguments: ["check", "--reloads", "log.csv", "--minimum-spacing", "inf"], code: 64,
             message: "option '--minimum-spacing' must be a whole number of seconds from 0 to 24h, such as 5m or 300s, got 'inf'", files: ["log.csv": Array(reloadsLog(limit: "40").utf8)]),
        Case(name: "check log number out of range", scenario: nil, arguments: ["check", "--reloads", "log.csv"], code: 65,
             message: "log.csv:2: budget_limit '9223372036854775806' is not a whole number from 1 to 1000000", files: ["log.csv": Array(reloadsLog(limit: "9223372036854775806").utf8)]),
        Case(name: "check given a fleet report", scenario: nil, arguments: ["check", "Reports/fleet-weather"], code: 66,
             message: "Reports/fleet-weather: a fleet report keeps counters, not rows, so there is nothing to audit; check a report written by 'widgetsim simulate'",
             files: ["Reports/fleet-weather/fleet.md": Array("# widgetsim fleet: fleet-weather\n".utf8)]),
        Case(name: "check given a file for the report directory", scenario: nil, arguments: ["check", "log.csv"], code: 64,
             message: "log.csv: not a directory; it is a reloads log: check it with --reloads log.csv, or give the report directory that holds it",
             files: ["log.csv": Array(reloadsLog(limit: "40").utf8)]),
        Case(name: "check given a device log for the report directory", scenario: nil, arguments: ["check", "phone.csv"], code: 64,
             message: "phone.csv: not a directory; it is a device log (what a phone records): audit it with --device-log phone.csv",
             files: ["phone.csv": Array(deviceLog(reloadAfter: "2026-03-02T10:10:00+01:00").utf8)]),
        Case(name: "check given some other file for the report directory", scenario: nil, arguments: ["check", "notes.txt"], code: 64,
             message: "notes.txt: not a directory; give the report directory (the one 'widgetsim simulate --out' wrote), check one reloads log with --reloads notes.txt, or a phone's device log with --device-log notes.txt",
             files: ["notes.txt": Array("time,event\n".utf8)]),
        Case(name: "reloads log given a device log", scenario: nil, arguments: ["check", "--reloads", "phone.csv"], code: 65,
             message: "phone.csv: a device log (what a phone records), not a reloads log; audit it with --device-log phone.csv",
             files: ["phone.csv": Array(deviceLog(reloadAfter: "2026-03-02T10:10:00+01:00").utf8)]),
        Case(name: "device log given a reloads log", scenario: nil, arguments: ["check", "--device-log", "log.csv"], code: 65,
             message: "log.csv: a report's reloads log (the simulator's rows), not a device log (what a phone records: README, \"Calibrating from your phone\"); 'widgetsim check --reloads log.csv' audits it",
             files: ["log.csv": Array(reloadsLog(limit: "40").utf8)]),
        Case(name: "report parameters given to simulate", scenario: scenario(), arguments: simulate + ["--parameters", "parameters.csv"], code: 65,
             message: "parameters.csv: this is a report's parameters.csv; --parameters takes the JSON parameters file that 'widgetsim calibrate' writes ({\"scheduler\": {...}}), and 'widgetsim check --parameters' takes the CSV",
             files: ["parameters.csv": Array("parameter,value\nminimum_spacing_seconds,300\n".utf8)]),
        Case(name: "calibrated parameters given to check", scenario: nil, arguments: ["check", "--reloads", "log.csv", "--parameters", "parameters.json"], code: 65,
             message: "parameters.json:1: unexpected header; expected the columns parameter,value; check's --parameters takes a report's parameters.csv (the JSON parameters file that 'widgetsim calibrate' writes goes to simulate, compare and sensitivity)",
             files: ["log.csv": Array(reloadsLog(limit: "40").utf8), "parameters.json": Array("{ \"scheduler\": {} }\n".utf8)]),
        Case(name: "device log bad field", scenario: nil, arguments: ["check", "--device-log", "phone.csv"], code: 65,
             message: "phone.csv:4: field 'reload_after': empty; an 'after' policy has a date", files: ["phone.csv": Array(deviceLog(reloadAfter: "").utf8)]),
        Case(name: "device log own calls too close", scenario: nil, arguments: ["check", "--device-log", "phone.csv", "--minimum-spacing", "10m"], code: 1,
             message: "rule violated: phone.csv:4: two of WidgetKit's own calls of k systemSmall are 5m apart, less than the minimum spacing 10m (F13); a free reload the app cannot see (location, locale: F17) would explain it",
             files: ["phone.csv": Array(deviceLog(reloadAfter: "2026-03-02T10:10:00+01:00").utf8)]),
        Case(name: "calibrate against another phone's scenario", scenario: scenario(), arguments: ["calibrate", "phone.csv", "--scenario", "bad.json"], code: 65,
             message: "phone.csv: none of the log's widgets ('k systemSmall') is on device 'phone' of bad.json ('w systemMedium'); give the scenario, and --device, that describe the phone the log comes from",
             files: ["phone.csv": Array(deviceLog(reloadAfter: "2026-03-02T10:10:00+01:00").utf8)]),
        Case(name: "calibrate against an unknown variant", scenario: scenario(top: #" "variants": [ { "name": "fast", "provider": { "policy": "after", "after": "15m" } } ],"#),
             arguments: ["calibrate", "phone.csv", "--scenario", "bad.json", "--variant", "fsat"], code: 64,
             message: "option '--variant': no variant 'fsat' in bad; did you mean 'fast'?; allowed: base, fast",
             files: ["phone.csv": Array(deviceLog(reloadAfter: "2026-03-02T10:10:00+01:00").utf8)]),
        Case(name: "calibrate without a scenario", scenario: nil, arguments: ["calibrate", "phone.csv"], code: 64,
             message: "missing --scenario <scenario>: the scenario that describes the phone (its widgets, apps and user)", files: ["phone.csv": Array(deviceLog(reloadAfter: "").utf8)]),
        Case(name: "calibrate given the scenario as an argument", scenario: scenario(), arguments: ["calibrate", "phone.csv", "bad.json"], code: 64,
             message: "expected one <device-log.csv>, got 2; the scenario goes after --scenario: widgetsim calibrate phone.csv --scenario bad.json",
             files: ["phone.csv": Array(deviceLog(reloadAfter: "").utf8)]),
        Case(name: "calibrate given the log after the scenario", scenario: scenario(), arguments: ["calibrate", "bad.json", "phone.csv"], code: 64,
             message: "expected one <device-log.csv>, got 2; the scenario goes after --scenario: widgetsim calibrate phone.csv --scenario bad.json",
             files: ["phone.csv": Array(deviceLog(reloadAfter: "").utf8)]),
        Case(name: "calibrate given a scenario file for the log", scenario: scenario(), arguments: ["calibrate", "bad.json", "--scenario", "bad.json"], code: 65,
             message: "bad.json: a JSON file (a scenario, or a parameters file?), not a device log: the log is the CSV file the phone wrote (README, \"Calibrating from your phone\"), and the scenario goes after --scenario"),
        Case(name: "device log given with a byte-order mark to --reloads", scenario: nil, arguments: ["check", "--reloads", "phone.csv"], code: 65,
             message: "phone.csv: a device log (what a phone records), not a reloads log; audit it with --device-log phone.csv",
             files: ["phone.csv": [0xEF, 0xBB, 0xBF] + Array(deviceLog(reloadAfter: "2026-03-02T10:10:00+01:00").utf8)]),
        Case(name: "check given a file named with a space for the report directory", scenario: nil, arguments: ["check", "my log.csv"], code: 64,
             message: "my log.csv: not a directory; it is a device log (what a phone records): audit it with --device-log 'my log.csv'",
             files: ["my log.csv": Array(deviceLog(reloadAfter: "2026-03-02T10:10:00+01:00").utf8)]),
        Case(name: "calibrate given a scenario's name for the log", scenario: scenario(), arguments: ["calibrate", "bad", "--scenario", "bad.json"], code: 66,
             message: "bad: no such file; a device log is the CSV file the phone wrote (README, \"Calibrating from your phone\"), not a scenario"),
        Case(name: "date given for addedAt", scenario: scenario(widget: #" "addedAt": "2026-03-03T08:00","#), arguments: simulate, code: 65,
             message: "bad.json:7:33: field 'devices[0].widgets[0].addedAt': \"2026-03-03T08:00\" is a date, but this field takes a duration; allowed: a duration from the start of the run (such as \"2d8h\"), not a date, or a number of seconds, from 0s to 6d23h59m59s"),
        Case(name: "date given for a duration", scenario: scenario(device: #" "user": { "dayJitter": "2026-03-03" },"#), arguments: simulate, code: 65,
             message: "bad.json:5:45: field 'devices[0].user.dayJitter': \"2026-03-03\" is a date, but this field takes a duration; allowed: a duration (such as \"30m\"), not a date, or a number of seconds, from 0s to 6h"),
        Case(name: "partial result from no real run", scenario: nil, arguments: ["merge", "part.txt", "--out", "merged"], code: 65,
             message: "part.txt:10: not a widgetsim partial result: bad shards line: expected the shard count (1...100000) and the shards it covers", files: ["part.txt": Array(partial(shards: "9223372036854775807 0").utf8)]),
        Case(name: "partial result with more variants than a run has", scenario: nil, arguments: ["merge", "part.txt", "--out", "merged"], code: 65,
             message: "part.txt:402: not a widgetsim partial result: more than 65 variants, the most a fleet run has (its base and at most 64 variants, as a scenario may declare)",
             files: ["part.txt": Array(FleetTests.partialText(variants: 66).utf8)]),
    ]

    /// One budgeted reload, under a given daily limit, in reloads.csv's columns.
    static func reloadsLog(limit: String) -> String {
        "seconds,time,device,widget,kind,trigger,budgeted,budget_used_24h,budget_limit,waited_seconds,result,entries,policy,next_eligible_seconds\n"
            + "0,2026-03-02T00:00:00+01:00,phone,w,w,policy,1,1,\(limit),0,ok,1,atEnd,3600\n"
    }

    /// A widget added, then two timeline calls 5 minutes apart in the device log format, the second returning `after` with `reloadAfter`.
    static func deviceLog(reloadAfter: String) -> String {
        "time,event,app,kind,family,configuration,policy,reload_after,entries\n"
            + "2026-03-02T09:55:00+01:00,timeline,app,k,systemSmall,,after,2026-03-02T10:00:00+01:00,1\n"
            + "2026-03-02T10:00:00+01:00,timeline,app,k,systemSmall,,after,2026-03-02T10:05:00+01:00,1\n"
            + "2026-03-02T10:05:00+01:00,timeline,app,k,systemSmall,,after,\(reloadAfter),1\n"
    }

    /// The head of a partial fleet result, with its shards line replaced.
    static func partial(shards: String) -> String {
        ["widgetsim-fleet-partial 1", "scenario fleet", "fingerprint 1", "seed 1", "days 1", "start 2026 3 2 0 0 0",
         "utc-offset 0", "devices 20", "warm-up-days 0", "shards \(shards)", "description \"\"", "end"].joined(separator: "\n") + "\n"
    }

    /// Twenty widgets whose truth changes 10,000 times a day, each change
    /// asking the app to reload all twenty: billions of events in a year.
    static let busyDevice: String = {
        let widgets = (0..<20).map {
            #"{ "id": "w\#($0)", "provider": { "policy": "atEnd" }, "truth": { "randomChangesPerDay": 10000, "onRandomChange": "reloadAll" } }"#
        }
        return "{\n  \"name\": \"bad\",\n  \"days\": 366,\n  \"devices\": [ { \"id\": \"phone\", \"widgets\": [\n    "
            + widgets.joined(separator: ",\n    ") + "\n  ] } ]\n}"
    }()

    /// 201 pages: one more than a device may have.
    static let manyPages = " \"pages\": [ " + (0...200).map { #"{ "name": "p\#($0)" }"# }.joined(separator: ", ") + " ],"

    /// 300 daily actions for a year: 110,100 planned actions.
    static let longScript: String = {
        let actions = (0..<300).map { minute in
            #"{ "daily": "\#(minute / 60 < 10 ? "0" : "")\#(minute / 60):\#(minute % 60 < 10 ? "0" : "")\#(minute % 60)", "action": "systemChange" }"#
        }
        return "{\n  \"name\": \"bad\",\n  \"days\": 366,\n  \"devices\": [ { \"id\": \"phone\", \"script\": [\n    "
            + actions.joined(separator: ",\n    ") + "\n  ], \"widgets\": [ { \"id\": \"w\", \"provider\": { \"policy\": \"atEnd\" } } ] } ]\n}"
    }()

    /// 400 daily actions: 2,800 in the scenario's 7 days, 110,000 in the
    /// 275 days of `longDeviceLog` that calibration simulates.
    static let calibratedScript: String = {
        let actions = (0..<400).map { minute in
            #"{ "daily": "\#(minute / 60 < 10 ? "0" : "")\#(minute / 60):\#(minute % 60 < 10 ? "0" : "")\#(minute % 60)", "action": "systemChange" }"#
        }
        return "{\n  \"name\": \"bad\",\n  \"days\": 7,\n  \"devices\": [ { \"id\": \"phone\", \"script\": [\n    "
            + actions.joined(separator: ",\n    ")
            + "\n  ], \"widgets\": [ { \"id\": \"w\", \"kind\": \"k\", \"family\": \"systemSmall\", \"provider\": { \"policy\": \"atEnd\" } } ] } ]\n}"
    }()

    /// A widget's timeline asked for every 12 hours for 275 days (the phone never off for 16 hours).
    static let longDeviceLog: String = {
        let calendar = CivilCalendar(localStart: CivilDateTime(year: 2026, month: 3, day: 2, hour: 9, minute: 55), utcOffsetSeconds: 3_600)
        let lines = (0..<550).map { index in
            let t = index * 12 * Seconds.hour
            return "\(calendar.iso8601(t)),timeline,app,k,systemSmall,,after,\(calendar.iso8601(t + 12 * Seconds.hour)),1"
        }
        return "time,event,app,kind,family,configuration,policy,reload_after,entries\n" + lines.joined(separator: "\n") + "\n"
    }()

    /// 1,000 devices for a year: more rows than memory allows.
    static let manyDevices: String = {
        let devices = (0..<1_000).map { #"{ "id": "p\#($0)", "widgets": [ { "id": "w", "provider": { "policy": "atEnd" } } ] }"# }
        return "{\n  \"name\": \"bad\",\n  \"days\": 366,\n  \"devices\": [\n    " + devices.joined(separator: ",\n    ") + "\n  ]\n}"
    }()

    @Test(arguments: cases)
    func badInputGetsAClearMessageAndExitCode(_ bad: Case) throws {
        let directory = Paths.temporaryDirectory("bad")
        defer { try? FileManager.default.removeItem(at: directory) }
        try "{}".write(to: directory.appendingPathComponent("weather.json"), atomically: true, encoding: .utf8)
        try "not a directory".write(to: directory.appendingPathComponent("afile"), atomically: true, encoding: .utf8)
        if let scenario = bad.scenario {
            try scenario.write(to: directory.appendingPathComponent("bad.json"), atomically: true, encoding: .utf8)
        }
        for (name, bytes) in bad.files {
            let file = directory.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: file)
        }
        if let fifo = bad.fifo {
            #expect(mkfifo(directory.appendingPathComponent(fifo).path, 0o600) == 0)
        }
        let process = Process()
        process.executableURL = Paths.binary
        process.arguments = bad.arguments
        process.currentDirectoryURL = directory
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = Pipe()
        try process.run()
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let firstLine = String(decoding: data, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
        let message = firstLine.replacingOccurrences(of: directory.standardizedFileURL.path + "/", with: "")
            .replacingOccurrences(of: directory.standardizedFileURL.path, with: ".")
        #expect(process.terminationStatus == bad.code)
        #expect(message.hasPrefix("error: "), "no error line: \(firstLine)")
        let text = String(message.dropFirst("error: ".count))
        if ProcessInfo.processInfo.environment["WIDGETSIM_PRINT_BAD_INPUT"] == "1" {
            print("RECORD \(bad.name) | \(process.terminationStatus) | \(text)")
        }
        if bad.prefixOnly {
            #expect(text.hasPrefix(bad.message), "\(text)")
        } else {
            #expect(text == bad.message)
        }
        #expect(!text.contains("Fatal error") && !text.contains("Stack dump"))
    }

    /// The README's table of bad inputs shows exactly these messages and codes.
    @Test func theReadmeTableListsEveryCaseWithItsMessageAndCode() throws {
        let readme = try String(contentsOf: Paths.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        for bad in Self.cases {
            let cell = "`" + bad.message.replacingOccurrences(of: "|", with: "\\|")
            let row = readme.split(separator: "\n").first { $0.hasPrefix("| \(bad.name) |") }
            #expect(row != nil, "README has no row for '\(bad.name)'")
            #expect(row?.contains(cell) == true, "README row for '\(bad.name)' lacks its message")
            #expect(row?.hasSuffix("| \(bad.code) |") == true, "README row for '\(bad.name)' lacks exit code \(bad.code)")
        }
    }
}
