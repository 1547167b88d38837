// Distributions of durations and of values.

extension ScenarioDecoder {
    /// A duration distribution: a duration (fixed) or
    /// `{"distribution": "fixed|uniform|exponential|logNormal", ...}`.
    func decodeDistribution(_ value: ValueReader) throws(ScenarioError) -> DurationDistribution {
        if case .object = value.node.value {} else {
            return .fixed(try value.wholeSeconds())
        }
        let object = try value.object()
        let kind = try object.required("distribution").string()
        switch kind {
        case "fixed":
            try object.rejectUnknownFields(["distribution", "value"])
            return .fixed(try object.required("value").wholeSeconds())
        case "uniform":
            try object.rejectUnknownFields(["distribution", "min", "max"])
            let low = try object.required("min").wholeSeconds()
            let high = try object.required("max").wholeSeconds()
            guard low <= high else {
                throw value.invalid("min \(DurationText.format(Double(low))) is above max \(DurationText.format(Double(high)))", allowed: "min ≤ max")
            }
            return .uniform(min: low, max: high)
        case "exponential":
            try object.rejectUnknownFields(["distribution", "mean"])
            return .exponential(mean: try object.required("mean").seconds(minimum: 0))
        case "logNormal":
            try object.rejectUnknownFields(["distribution", "median", "p95"])
            let median = try object.required("median").seconds(minimum: 0.001)
            let p95Value = try object.required("p95")
            let p95 = try p95Value.seconds(minimum: 0.001)
            guard p95 >= median else {
                throw p95Value.invalid("p95 \(DurationText.format(p95)) is below the median \(DurationText.format(median))", allowed: "p95 ≥ median")
            }
            return .logNormal(median: median, p95: p95)
        default:
            let names = ["fixed", "uniform", "exponential", "logNormal"]
            let hint = Suggestion.hint(for: kind, among: names, style: .parenthesized)
            throw try object.required("distribution").invalid(
                "unknown distribution \"\(kind)\"\(hint)", allowed: names.map { "\"\($0)\"" }.joined(separator: ", "))
        }
    }

    /// A number (fixed) or {"distribution": "uniform", "min", "max"} or
    /// {"distribution": "logNormal", "median", "p95"}.
    func decodeValueDistribution(_ value: ValueReader) throws(ScenarioError) -> ValueDistribution {
        if case .number = value.node.value { return .fixed(try value.double(in: 0...1e6)) }
        let object = try value.object()
        let kindValue = try object.required("distribution")
        switch try kindValue.string() {
        case "uniform":
            try object.rejectUnknownFields(["distribution", "min", "max"])
            let low = try object.required("min").double(in: 0...1e6)
            let high = try object.required("max").double(in: 0...1e6)
            guard low <= high else { throw value.invalid("min \(low) is above max \(high)", allowed: "min ≤ max") }
            return .uniform(min: low, max: high)
        case "logNormal":
            try object.rejectUnknownFields(["distribution", "median", "p95"])
            let median = try object.required("median").double(in: 0.000_001...1e6)
            let p95 = try object.required("p95").double(in: 0.000_001...1e6)
            guard p95 >= median else { throw value.invalid("p95 \(p95) is below the median \(median)", allowed: "p95 ≥ median") }
            return .logNormal(median: median, p95: p95)
        default:
            throw kindValue.invalid("unknown distribution \"\(try kindValue.string())\"", allowed: "a number, \"uniform\" (min, max), \"logNormal\" (median, p95)")
        }
    }
}
