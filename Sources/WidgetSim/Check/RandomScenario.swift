/// Random valid scenarios, one per seed, for property tests and `make fuzz`.
///
/// Promised: the text for a seed is always the same, and always a valid
/// scenario (a generator that made an invalid one is itself a failure).
/// Scenarios mix every policy, budget model, trigger, page layout, latency
/// (including ones past the time limit) and a Swift provider, kept small so
/// that thousands run in seconds.
public enum RandomScenario {
    public static func text(seed: UInt64) -> String {
        var generator = Generator(random: StreamSeed(seed).derived("random-scenario").stream())
        return generator.scenario(seed: seed)
    }

    struct Generator {
        var random: RandomStream

        mutating func chance(_ p: Double) -> Bool { random.nextBool(probability: p) }
        mutating func int(_ range: ClosedRange<Int>) -> Int { random.nextInt(in: range) }
        mutating func pick<T>(_ options: [T]) -> T { options[random.nextInt(below: options.count)] }
        mutating func number(_ range: ClosedRange<Double>, decimals: Int = 2) -> String {
            FixedDecimal.format(range.lowerBound + (range.upperBound - range.lowerBound) * random.nextUnit(), decimals: decimals)
        }
        mutating func duration(_ range: ClosedRange<Int>) -> String { "\"\(int(range))s\"" }
        mutating func clock(_ hours: ClosedRange<Int>) -> String {
            let hour = int(hours)
            let minute = int(0...59)
            return "\"\(hour < 10 ? "0" : "")\(hour):\(minute < 10 ? "0" : "")\(minute)\""
        }

        mutating func distribution(maxSeconds: Int) -> String {
            switch int(0...3) {
            case 0: return duration(0...maxSeconds)
            case 1:
                let low = int(0...maxSeconds / 2)
                return "{ \"distribution\": \"uniform\", \"min\": \"\(low)s\", \"max\": \"\(int(low...maxSeconds))s\" }"
            case 2: return "{ \"distribution\": \"exponential\", \"mean\": \"\(int(1...max(1, maxSeconds / 3)))s\" }"
            default:
                let median = int(1...max(1, maxSeconds / 4))
                return "{ \"distribution\": \"logNormal\", \"median\": \"\(median)s\", \"p95\": \"\(int(median...max(median, maxSeconds)))s\" }"
            }
        }

        mutating func scenario(seed: UInt64) -> String {
            var fields = [
                "\"name\": \"random-\(seed)\"",
                "\"seed\": \(random.next() >> 1)",
                "\"days\": \(int(1...3))",
                "\"start\": \"\(startDate())\"",
                "\"utcOffset\": \"\(pick(["+00:00", "+01:00", "-05:00", "+05:30", "-08:00", "+09:00", "Z"]))\"",
                scheduler(),
            ]
            let devices = (0..<int(1...2)).map { device($0) }
            fields.append("\"devices\": [\n" + devices.joined(separator: ",\n") + "\n]")
            return "{\n" + fields.joined(separator: ",\n") + "\n}\n"
        }

        mutating func startDate() -> String {
            let month = int(1...12)
            return "2026-\(month < 10 ? "0" : "")\(month)-\(int(10...28))T\(int(10...23)):00"
        }

        mutating func scheduler() -> String {
            let minimum = int(1...40)
            var fields = [
                "\"budgetModel\": \"\(pick(BudgetModel.allCases.map(\.rawValue)))\"",
                "\"dailyBudget\": { \"min\": \(minimum), \"max\": \(int(minimum...80)) }",
                "\"minimumDailyBudget\": \(int(1...minimum))",
                "\"minimumSpacing\": \(pick(["\"0s\"", "\"1m\"", "\"5m\"", "\"15m\""]))",
                "\"learningDays\": \(pick(["0", "1", "3", "0.5"]))",
                "\"frequentViewsPerDay\": \(pick(["0", "20", "5"]))",
                "\"pushBudget\": \"\(pick(PushBudget.allCases.map(\.rawValue)))\"",
                "\"coalescingWindow\": \(duration(0...900))",
                "\"deferWhenUnseenFor\": \(pick(["\"0s\"", "\"2h\"", "\"30m\""]))",
                "\"providerTimeLimit\": \(duration(5...40))",
            ]
            if chance(0.5) { fields.append("\"schedulingDelay\": \(distribution(maxSeconds: 1_800))") }
            if chance(0.5) { fields.append("\"tokenBucketBurst\": \(number(0.05...1))") }
            if chance(0.3) { fields.append("\"singleEntryAtEndDelay\": \(distribution(maxSeconds: 7_200))") }
            if chance(0.3) { fields.append("\"foregroundReloadDelay\": \(distribution(maxSeconds: 60))") }
            if chance(0.4) { fields.append("\"pacingWindow\": \(duration(3_600...86_400)), \"pacingBurst\": \(number(1...4))") }
            if chance(0.2) { fields.append("\"earlyReloadWindow\": \(duration(0...900))") }
            if chance(0.3) { fields.append("\"pushDailyBudget\": \(int(1...30))") }
            if chance(0.2) { fields.append("\"maximumReliableEntries\": \(int(3...500))") }
            if chance(0.2) {
                let low = int(0...1)
                fields.append("\"extraTimelineCalls\": { \"min\": \(low), \"max\": \(int(low...3)) }")
            }
            if chance(0.2) { fields.append("\"reloadsIgnoredAfterWidgetLaunch\": \(duration(0...60))") }
            if chance(0.2) { fields.append("\"locationAccessAfterView\": \(duration(0...3_600))") }
            return "\"scheduler\": { " + fields.joined(separator: ", ") + " }"
        }

        mutating func device(_ index: Int) -> String {
            let pages = (0..<int(1...3)).map { "{ \"name\": \"page\($0)\", \"viewsPerDay\": \(number(0...90, decimals: 1)) }" }
            let apps = (0..<int(1...2)).map { app in
                let code = chance(0.1) ? "\"swift\": \"characterApp\"" : "\"foregroundReload\": \"\(pick(["none", "all", "kind:kind0"]))\""
                return "{ \"id\": \"app\(app)\", \"sessionsPerDay\": \(number(0...4)), \(code), "
                    + "\"mediaSessionsPerDay\": \(number(0...2)), \"mediaSessionLength\": \(distribution(maxSeconds: 3_600)) }"
            }
            let widgetCount = int(1...4)
            let widgets = (0..<widgetCount).map { widget($0, pages: pages.count, apps: apps.count) }
            var fields = [
                "\"id\": \"device\(index)\"",
                "\"user\": { \"wake\": \(clock(5...9)), \"sleep\": \(clock(21...23)), \"locationChangesPerDay\": \(number(0...6)), \"systemChangesPerDay\": \(number(0...1)) }",
                "\"pages\": [" + pages.joined(separator: ", ") + "]",
                "\"apps\": [" + apps.joined(separator: ", ") + "]",
                "\"widgets\": [\n" + widgets.joined(separator: ",\n") + "\n]",
            ]
            if chance(0.5) {
                let actions = (0..<int(1...6)).map { _ in scriptAction(pages: pages.count, apps: apps.count, widgets: widgetCount) }
                fields.append("\"script\": [" + actions.joined(separator: ", ") + "]")
            }
            return "{ " + fields.joined(separator: ",\n") + " }"
        }

        mutating func scriptAction(pages: Int, apps: Int, widgets: Int) -> String {
            let at = "\"at\": \"\(int(0...86_399))s\""
            switch int(0...9) {
            case 0: return "{ \(at), \"action\": \"view\", \"page\": \"page\(int(0...pages - 1))\" }"
            case 1: return "{ \(at), \"action\": \"reloadTimelines\", \"app\": \"app\(int(0...apps - 1))\", \"kind\": \"kind0\" }"
            case 2: return "{ \(at), \"action\": \"reloadAllTimelines\", \"app\": \"app\(int(0...apps - 1))\" }"
            case 3: return "{ \(at), \"action\": \"push\", \"app\": \"app\(int(0...apps - 1))\" }"
            case 4: return "{ \(at), \"action\": \"appSession\", \"app\": \"app\(int(0...apps - 1))\", \"length\": \"\(int(1...900))s\" }"
            case 5: return "{ \(at), \"action\": \"mediaSession\", \"app\": \"app\(int(0...apps - 1))\", \"length\": \"\(int(1...3_600))s\" }"
            case 6: return "{ \(at), \"action\": \"tap\", \"widget\": \"w\(int(0...widgets - 1))\" }"
            case 7: return "{ \(at), \"action\": \"truthChange\", \"widget\": \"w\(int(0...widgets - 1))\" }"
            case 8: return "{ \(at), \"action\": \"locationChange\" }"
            default: return "{ \(at), \"action\": \"systemChange\" }"
            }
        }

        mutating func widget(_ index: Int, pages: Int, apps: Int) -> String {
            var fields = [
                "\"id\": \"w\(index)\"",
                "\"kind\": \"kind\(int(0...1))\"",
                "\"family\": \"\(pick(["systemSmall", "systemMedium", "systemLarge", "accessoryCircular", "accessoryRectangular", "accessoryInline"]))\"",
                "\"page\": \"page\(int(0...pages - 1))\"",
                "\"app\": \"app\(int(0...apps - 1))\"",
                "\"tapsPerView\": \(number(0...0.3))",
                "\"launchesAppPerView\": \(pick(["0", number(0...0.3)]))",
                "\"addedAt\": \"\(pick([0, 0, int(0...86_399)]))s\"",
                "\"provider\": \(provider())",
                "\"truth\": \(truth())",
            ]
            if chance(0.3) { fields.append("\"configuration\": \"city \(int(0...5))\"") }
            return "{ " + fields.joined(separator: ", ") + " }"
        }

        mutating func provider() -> String {
            let latency = "\"latency\": \(distribution(maxSeconds: pick([5, 20, 60])))"
            if chance(0.08) {
                return "{ \"swift\": \"\(pick(["characterDetail", "dragonBattle"]))\", \(latency), \"failureRate\": \(number(0...0.2)) }"
            }
            var fields: [String] = []
            switch int(0...2) {
            case 0: fields.append("\"policy\": \"atEnd\"")
            case 1: fields.append("\"policy\": \"after\", \"after\": \(duration(60...10_800))")
            default: fields.append("\"policy\": \"never\"")
            }
            if chance(0.2) {
                var offsets = [0]
                for _ in 0..<int(0...5) { offsets.append(offsets.last! + int(1...7_200)) }
                fields.append("\"entryOffsets\": [" + offsets.map { "\"\($0)s\"" }.joined(separator: ", ") + "]")
            } else {
                // Now and then far more entries than WidgetKit shows (F23).
                let entries = chance(0.05) ? int(390...600) : int(1...8)
                fields.append("\"entries\": \(entries), \"entrySpacing\": \(duration(300...7_200)), \"alignEntries\": \(chance(0.5))")
            }
            fields.append(latency)
            fields.append("\"forecasts\": \(chance(0.5)), \"jitter\": \(duration(0...900)), \"afterAlignment\": \(pick(["\"0s\"", "\"1h\"", "\"15m\""]))")
            fields.append("\"skipInactiveHours\": \(chance(0.3)), \"failureRate\": \(number(0...0.3)), \"retryAfterFailure\": \(duration(60...3_600))")
            fields.append("\"backgroundSessionProbability\": \(number(0...0.3)), \"backgroundSessionDuration\": \(distribution(maxSeconds: 3_600))")
            return "{ " + fields.joined(separator: ", ") + " }"
        }

        mutating func truth() -> String {
            var fields: [String] = []
            if chance(0.7) {
                fields.append("\"changeEvery\": \(pick(["\"1m\"", "\"15m\"", "\"1h\"", "\"8h\"", "\"7m\""]))")
                if chance(0.3) {
                    fields.append("\"activeHours\": { \"days\": [\"mon\", \"wed\", \"fri\", \"sat\"], \"from\": \(clock(6...11)), \"to\": \(clock(13...22)) }")
                }
                fields.append("\"forecastHorizon\": \(pick(["\"0s\"", "\"3h\"", "\"30d\""])), \"dynamicDateText\": \(chance(0.2))")
            }
            fields.append("\"randomChangesPerDay\": \(number(0...20)), \"onRandomChange\": \"\(pick(TruthReaction.allCases.map(\.rawValue)))\"")
            fields.append("\"changesWithLocation\": \(chance(0.3))")
            if chance(0.2) {
                var instants = [int(0...20_000)]
                for _ in 0..<int(0...2) { instants.append(instants.last! + int(1...20_000)) }
                fields.append("\"scheduledChanges\": [" + instants.map { "\"\($0)s\"" }.joined(separator: ", ") + "]")
            }
            return "{ " + fields.joined(separator: ", ") + " }"
        }
    }

    /// What one seed's run showed: nil when every property holds.
    public static func failure(seed: UInt64) -> String? {
        let text = text(seed: seed)
        let setup: SimulationSetup
        do {
            setup = try ScenarioLoader.decode(text, file: "random-\(seed).json")
        } catch {
            return "the generated scenario is invalid: \(error.description)"
        }
        let collector: ReportCollector
        do {
            collector = try Simulation.run(setup)
        } catch {
            return "the run stopped: \(error.description)"
        }
        let files = ReportWriter(setup: setup, collector: collector).files()
        let byName = Dictionary(uniqueKeysWithValues: files.map { ("report/" + $0.name, $0.contents) })
        do {
            _ = try ReportChecker.checkDirectory("report", read: { byName[$0] })
        } catch {
            return "check failed: \(error.description)"
        }
        guard let rerun = try? Simulation.run(setup) else { return "the second run stopped where the first did not" }
        let again = ReportWriter(setup: setup, collector: rerun).files()
        if again != files {
            return "the same seed gave different bytes in \(zip(files, again).first { $0 != $1 }.map { $0.0.name } ?? "the file list")"
        }
        return nil
    }
}
