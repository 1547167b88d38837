/// The fuzzer's `--name value` options, the last of each name winning.
struct CommandOptions {
    private var values: [(name: String, value: String)] = []

    init(_ arguments: [String], known: [String], usage: String) {
        var position = 0
        while position < arguments.count {
            let name = arguments[position]
            guard known.contains(name) else { fatal("unknown option '\(name)'\n\(usage)", code: 64) }
            guard position + 1 < arguments.count else { fatal("option '\(name)' needs a value", code: 64) }
            values.append((name, arguments[position + 1]))
            position += 2
        }
    }

    func value(_ name: String) -> String? { values.last { $0.name == name }?.value }

    func number<Number: FixedWidthInteger>(_ name: String, _ type: Number.Type, default fallback: Number) -> Number {
        guard let text = value(name) else { return fallback }
        guard let number = Number(text) else { fatal("option '\(name)' must be a whole number, got '\(text)'", code: 64) }
        return number
    }

    /// "2GiB", "512MiB", "1G", "1500M" or a number of bytes.
    static func parseSize(_ text: String) -> Int? {
        let units: [(suffix: String, factor: Double)] = [
            ("GiB", 1_073_741_824), ("MiB", 1_048_576), ("KiB", 1_024), ("G", 1_073_741_824), ("M", 1_048_576), ("K", 1_024),
        ]
        for unit in units where text.hasSuffix(unit.suffix) {
            guard let amount = Double(text.dropLast(unit.suffix.count)), amount > 0, amount < 1_048_576 else { return nil }
            return Int(amount * unit.factor)
        }
        return Int(text).flatMap { $0 > 0 ? $0 : nil }
    }
}
