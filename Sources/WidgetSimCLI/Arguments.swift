import WidgetSim

/// A declared option of a command.
struct OptionSpec: Sendable {
    var name: String
    var short: Character?
    var valueName: String?
    var help: String

    /// A flag takes no value.
    var isFlag: Bool { valueName == nil }

    var usage: String {
        let names = (short.map { "-\($0), " } ?? "    ") + "--\(name)"
        return valueName.map { "\(names) <\($0)>" } ?? names
    }
}

/// Parsed command-line arguments: options by name and positionals in order.
///
/// Accepts `--name value`, `--name=value`, `-x value`, and `--` to end
/// options. An unknown option is a usage error naming the nearest valid one,
/// and so is an option given twice (a flag may be repeated: it says one thing).
struct ParsedArguments {
    private var values: [(name: String, value: String)] = []
    private(set) var flags: [String] = []
    private(set) var positionals: [String] = []

    init(_ arguments: [String], options: [OptionSpec], command: String) throws(CommandError) {
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var name: String
            var inlineValue: String?
            if argument.hasPrefix("--") {
                let body = argument.dropFirst(2)
                if let equals = body.firstIndex(of: "=") {
                    name = String(body[..<equals])
                    inlineValue = String(body[body.index(after: equals)...])
                } else {
                    name = String(body)
                }
            } else {
                guard argument.count == 2, let spec = options.first(where: { $0.short == argument.last }) else {
                    throw .usage("unknown option '\(argument)' for '\(command)'" + ParsedArguments.hint(argument, options))
                }
                name = spec.name
            }
            guard let spec = options.first(where: { $0.name == name }) else {
                throw .usage("unknown option '--\(name)' for '\(command)'" + ParsedArguments.hint(name, options))
            }
            if spec.isFlag {
                guard inlineValue == nil else { throw .usage("option '--\(name)' takes no value") }
                flags.append(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count else {
                    throw .usage("option '--\(name)' needs a value <\(spec.valueName!)>")
                }
                value = arguments[index]
                index += 1
                // An option where the value should be ("--out --quiet") is a
                // value forgotten, not a directory named "--quiet"; a value
                // that does start so is written "--out=--quiet".
                if ParsedArguments.names(value, anOptionOf: options) {
                    throw .usage("option '--\(name)' needs a value <\(spec.valueName!)>, and got the option '\(value)'; a value that starts with '-' is written --\(name)=\(value)")
                }
            }
            // Every option takes one value: a second would silently replace the first.
            if let first = values.first(where: { $0.name == name }) {
                throw .usage("option '--\(name)' given twice ('\(first.value)', then '\(value)'); it takes one value")
            }
            values.append((name, value))
        }
    }

    /// True when `argument` is one of `options` as the command line writes
    /// it: "--name", "--name=…" or "-x".
    static func names(_ argument: String, anOptionOf options: [OptionSpec]) -> Bool {
        if argument.hasPrefix("--") {
            let name = argument.dropFirst(2).prefix { $0 != "=" }
            return options.contains { $0.name == name }
        }
        return argument.count == 2 && argument.hasPrefix("-") && options.contains { $0.short == argument.last }
    }

    static func hint(_ name: String, _ options: [OptionSpec]) -> String {
        let bare = String(name.drop { $0 == "-" })
        let hint = Suggestion.hint(for: bare, among: options.map(\.name), style: .clause, quote: "'", prefix: "--")
        return hint.isEmpty ? "; see '--help'" : hint
    }

    /// The value given for `name`, if any (an option is given at most once).
    func value(_ name: String) -> String? {
        values.last { $0.name == name }?.value
    }

    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// A path option that widgetsim writes to (a report directory, a partial
    /// result, a device log). Refused when empty, and when '-': the tools
    /// that read '-' as standard output taught users to try it, and a
    /// directory or file named '-' made in its place would surprise them.
    func outputPath(_ name: String, of kind: String) throws(CommandError) -> String? {
        guard let text = value(name) else { return nil }
        guard !text.isEmpty else { throw .usage("option '--\(name)' needs a \(kind)") }
        guard text != "-" else {
            throw .usage("option '--\(name)' takes a \(kind), and widgetsim writes none to standard output ('-'); for a \(kind) named '-', give ./-")
        }
        return text
    }

    /// An integer option within `range`.
    func integer(_ name: String, in range: ClosedRange<Int>) throws(CommandError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw .usage("option '--\(name)' must be a whole number from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
        }
        return number
    }

    /// An unsigned 64-bit option.
    func seed(_ name: String) throws(CommandError) -> UInt64? {
        guard let text = value(name) else { return nil }
        guard let number = UInt64(text) else {
            throw .usage("option '--\(name)' must be a whole number from 0 to \(UInt64.max), got '\(text)'")
        }
        return number
    }
}
