/// Builds a small SVG document as text, deterministically: coordinates are
/// written with one fixed decimal and attributes in a fixed order.
struct SVGCanvas {
    let width: Int
    let height: Int
    private(set) var body = ""

    /// Okabe–Ito colours, distinguishable with colour-blindness.
    enum Palette {
        static let blue = "#0072B2"
        static let green = "#009E73"
        static let vermillion = "#D55E00"
        static let orange = "#E69F00"
        static let sky = "#56B4E9"
        static let purple = "#CC79A7"
        static let yellow = "#F0E442"
        static let grey = "#999999"
        static let ink = "#222222"
        static let faint = "#DDDDDD"
        static let series = [blue, vermillion, green, purple, orange, sky, yellow, grey]
    }

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    static func number(_ value: Double) -> String { FixedDecimal.format(value, decimals: 1) }

    /// A generous estimate of how wide `text` is drawn at `size` in a
    /// sans-serif font (0.6 em a character), for keeping labels apart; the
    /// viewer's font decides the real width.
    static func estimatedWidth(_ text: String, size: Int) -> Double {
        Double(text.count) * 0.6 * Double(size)
    }

    /// XML text: markup characters as entities, and control characters (which
    /// XML 1.0 does not allow) shown as `\u{XX}`.
    static func escaped(_ text: String) -> String {
        var result = ""
        for character in DisplayText.visible(text) {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }

    mutating func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, stroke: String, width: Double = 1, dash: String? = nil) {
        body += "<line x1=\"\(Self.number(x1))\" y1=\"\(Self.number(y1))\" x2=\"\(Self.number(x2))\" y2=\"\(Self.number(y2))\" stroke=\"\(stroke)\" stroke-width=\"\(Self.number(width))\""
        if let dash { body += " stroke-dasharray=\"\(dash)\"" }
        body += "/>\n"
    }

    mutating func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, fill: String, stroke: String? = nil) {
        body += "<rect x=\"\(Self.number(x))\" y=\"\(Self.number(y))\" width=\"\(Self.number(max(0, w)))\" height=\"\(Self.number(max(0, h)))\" fill=\"\(fill)\""
        if let stroke { body += " stroke=\"\(stroke)\"" }
        body += "/>\n"
    }

    mutating func circle(_ x: Double, _ y: Double, radius: Double, fill: String, stroke: String? = nil) {
        body += "<circle cx=\"\(Self.number(x))\" cy=\"\(Self.number(y))\" r=\"\(Self.number(radius))\" fill=\"\(fill)\""
        if let stroke { body += " stroke=\"\(stroke)\" stroke-width=\"1.5\"" }
        body += "/>\n"
    }

    mutating func polyline(_ points: [(Double, Double)], stroke: String, width: Double = 1.5, dash: String? = nil) {
        guard points.count > 1 else { return }
        let list = points.map { "\(Self.number($0.0)),\(Self.number($0.1))" }.joined(separator: " ")
        body += "<polyline points=\"\(list)\" fill=\"none\" stroke=\"\(stroke)\" stroke-width=\"\(Self.number(width))\""
        if let dash { body += " stroke-dasharray=\"\(dash)\"" }
        body += "/>\n"
    }

    mutating func polygon(_ points: [(Double, Double)], fill: String) {
        let list = points.map { "\(Self.number($0.0)),\(Self.number($0.1))" }.joined(separator: " ")
        body += "<polygon points=\"\(list)\" fill=\"\(fill)\"/>\n"
    }

    enum Anchor: String { case start, middle, end }

    mutating func text(_ x: Double, _ y: Double, _ content: String, size: Int = 11, anchor: Anchor = .start, bold: Bool = false, fill: String = Palette.ink, rotate: Bool = false) {
        body += "<text x=\"\(Self.number(x))\" y=\"\(Self.number(y))\" font-size=\"\(size)\" text-anchor=\"\(anchor.rawValue)\" fill=\"\(fill)\""
        if bold { body += " font-weight=\"bold\"" }
        if rotate { body += " transform=\"rotate(-90 \(Self.number(x)) \(Self.number(y)))\"" }
        body += ">\(Self.escaped(content))</text>\n"
    }

    /// A legend row of coloured swatches and labels, starting at (x, y).
    mutating func legend(_ x: Double, _ y: Double, _ items: [(label: String, draw: (inout SVGCanvas, Double, Double) -> Void)]) {
        var cursor = x
        for item in items {
            item.draw(&self, cursor + 6, y - 4)
            text(cursor + 16, y, item.label)
            cursor += 26 + Double(item.label.count) * 6.2
        }
    }

    var document: String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\" font-family=\"Helvetica, Arial, sans-serif\">\n"
            + "<rect x=\"0\" y=\"0\" width=\"\(width)\" height=\"\(height)\" fill=\"#FFFFFF\"/>\n"
            + body + "</svg>\n"
    }
}

/// Axis ticks at round values.
enum Ticks {
    /// About `count` round tick values covering `0...maximum`.
    static func nice(maximum: Double, count: Int = 5) -> [Double] {
        guard maximum > 0 else { return [0, 1] }
        let raw = maximum / Double(count)
        var step = 1.0
        while step * 10 <= raw { step *= 10 }
        while step > raw { step /= 10 }
        for multiple in [1.0, 2.0, 2.5, 5.0, 10.0] where step * multiple >= raw {
            step *= multiple
            break
        }
        var ticks: [Double] = []
        var value = 0.0
        while value <= maximum + step * 0.5 {
            ticks.append(value)
            value += step
        }
        return ticks
    }
}
