// "schedule": a configured provider's policy rules by time of day, weekday and
// the truth's state.

extension ScenarioDecoder {
    static let policyRuleFields = ["days", "from", "to", "whenTruth", "policy", "after", "until"]
    static let rulePolicies = "\"atEnd\", \"after\" (with \"after\": a duration), \"until\" (with \"until\": a clock time), \"never\""

    func decodePolicyRule(_ value: ValueReader) throws(ScenarioError) -> PolicyRule {
        let object = try value.object()
        try object.rejectUnknownFields(ScenarioDecoder.policyRuleFields)
        var rule = PolicyRule(answer: .atEnd)
        if let list = object.optional("days") {
            rule = PolicyRule(weekdays: try decodeWeekdays(list), answer: .atEnd)
        }
        let windowAllowed = "both \"from\" and \"to\" (\"to\" before \"from\" crosses midnight), or neither for the whole day"
        switch (object.optional("from"), object.optional("to")) {
        case (nil, nil):
            break
        case (let from?, nil):
            throw from.invalid("\"from\" without \"to\"", allowed: windowAllowed)
        case (nil, let to?):
            throw to.invalid("\"to\" without \"from\"", allowed: windowAllowed)
        case (let fromValue?, let toValue?):
            let from = try fromValue.clockTime()
            let to = try toValue.clockTime()
            // From 00:00 to 24:00 is the whole day, as no window is.
            if from == 0 && to == Seconds.day { break }
            // 24:00 is the next midnight; as a window edge it is 00:00.
            let window = PolicyRule.Window(from: from % Seconds.day, to: to % Seconds.day)
            guard window.from != window.to else {
                throw toValue.invalid(
                    "the window is empty: it opens and closes at \(try toValue.string())",
                    allowed: "\"to\" other than \"from\" (\"to\" before \"from\" crosses midnight), or neither for the whole day")
            }
            rule.window = window
        }
        if let state = object.optional("whenTruth") { rule.truth = try state.oneOf(PolicyRule.TruthState.self) }
        if object.optional("days") == nil && rule.window == nil && rule.truth == nil {
            throw value.invalid(
                "a rule without a condition would always apply, hiding the provider's own policy and every later rule",
                allowed: "\"days\", \"from\"/\"to\" or \"whenTruth\" in every rule; the provider's \"policy\" applies when no rule does")
        }
        let policyValue = try object.required("policy")
        let policy = try policyValue.string()
        switch policy {
        case "atEnd": rule.answer = .atEnd
        case "never": rule.answer = .never
        // F13: an interval below the minimum spacing is allowed, as in
        // WidgetKit: the scheduler, not the provider, enforces the spacing.
        case "after": rule.answer = .after(interval: try object.required("after").wholeSeconds(minimum: 1, maximum: 30 * Seconds.day))
        case "until": rule.answer = .until(secondOfDay: try object.required("until").clockTime() % Seconds.day)
        default:
            let hint = Suggestion.hint(for: policy, among: ["atEnd", "after", "until", "never"], style: .parenthesized)
            throw policyValue.invalid("unknown policy \"\(policy)\"\(hint)", allowed: ScenarioDecoder.rulePolicies)
        }
        for key in ["after", "until"] where key != policy {
            if let stray = object.optional(key) {
                throw stray.invalid(
                    "\"\(key)\" is set but the rule's policy is \"\(policy)\"",
                    allowed: "\"\(key)\" only with \"policy\": \"\(key)\"")
            }
        }
        return rule
    }

    /// Refuses rules that ask for the truth's state when it has no active
    /// hours, and rules that never decide because earlier ones apply whenever
    /// they would: first match wins, so such a rule is a mistake in the order
    /// (the narrower rule belongs first), never something to warn about and run.
    func checkSchedule(_ schedule: [PolicyRule], in value: ValueReader, truthWindow: ActiveWindow?) throws(ScenarioError) {
        let readers = try value.array()
        if truthWindow == nil {
            for (index, rule) in schedule.enumerated() where rule.truth != nil {
                throw try readers[index].object().required("whenTruth").invalid(
                    "the widget's truth has no activeHours, so it is never active or inactive",
                    allowed: "\"whenTruth\" with \"activeHours\" in the widget's truth")
            }
        }
        let decides = PolicyRule.reachable(schedule, truthWindow: truthWindow)
        let moments = PolicyRule.moments(of: schedule, truthWindow: truthWindow)
        for (index, rule) in schedule.enumerated() where !decides[index] {
            let when = moments.filter { rule.matches($0) }
            let earlier = (0..<index).filter { other in when.contains { schedule[other].matches($0) } }
            let reason = when.isEmpty
                ? "this rule never applies: no time of the week meets all its conditions"
                : "this rule never applies: \(earlier.map { "\(value.path)[\($0)]" }.joined(separator: " and ")) always \(earlier.count == 1 ? "applies" : "apply") first"
            throw readers[index].invalid(reason, allowed: "rules that each apply at some time no earlier rule covers (put the narrower rule first)")
        }
    }
}
