/// A Swift expression built from calls, arrays and atoms, printed on one line when short;
/// otherwise a call's arrays hug it (`Entity(name: "Dog", attributes: [` … `])`) or, when that
/// does not fit, its short arguments fill lines; an array's names fill lines, and other arrays
/// have one element per line. Used to write the model as Swift values.
indirect enum SwiftLiteral {
    case atom(String)
    case call(String, [LiteralArgument])
    case array([SwiftLiteral])
    /// On lines of its own, never filled with its neighbours: one line when it fits (one
    /// property of the model literal per line), else laid out as the literal inside.
    case unbroken(SwiftLiteral)

    static func string(_ text: String) -> SwiftLiteral { .atom(SwiftNames.stringLiteral(text)) }

    /// The expression, for a line `indentLevel` levels in (4 columns a level), so that it fits
    /// the renderer's line limit there; lines after the first are indented relative to the first.
    func rendered(indentLevel: Int) -> String {
        var lines: [String] = []
        render(maximumLength: TextRenderer.defaultMaximumLineLength - 4 * indentLevel, into: &lines, indent: "")
        return lines.joined(separator: "\n")
    }

    /// Appends the expression's lines, the first one as `indent + prefix + …` is the caller's
    /// business: here the first line starts with `indent`.
    private func render(maximumLength: Int, into lines: inout [String], indent: String, prefix: String = "", suffix: String = "") {
        let limit = maximumLength - indent.utf8.count - prefix.utf8.count - suffix.utf8.count
        let inner = indent + "    "
        switch self {
        case .call(let name, let arguments) where !fitsOnOneLine(within: limit):
            if let hugged = huggingLines(name: name, arguments: arguments, maximumLength: maximumLength, indent: indent, prefix: prefix, suffix: suffix) {
                lines += hugged
                return
            }
            // Arguments that fit on a line share lines, filled up to `maximumLength`; the others
            // (arrays of properties, long calls) get lines of their own.
            lines.append(indent + prefix + name + "(")
            var filling = LineFilling(indent: inner, maximumLength: maximumLength)
            for (position, argument) in arguments.enumerated() {
                let label = argument.label.map { "\($0): " } ?? ""
                let separator = position == arguments.count - 1 ? "" : ","
                if case .unbroken = argument.value {} else if argument.value.fitsOnOneLine(
                    within: maximumLength - inner.utf8.count - label.utf8.count - separator.utf8.count) {
                    var text = label
                    argument.value.appendFlat(to: &text)
                    filling.add(text + separator, to: &lines)
                    continue
                }
                filling.finish(into: &lines)
                argument.value.render(maximumLength: maximumLength, into: &lines, indent: inner, prefix: label, suffix: separator)
            }
            filling.finish(into: &lines)
            lines.append(indent + ")" + suffix)
        case .unbroken(let literal) where !fitsOnOneLine(within: limit):
            literal.render(maximumLength: maximumLength, into: &lines, indent: indent, prefix: prefix, suffix: suffix)
        case .array(let elements) where !fitsOnOneLine(within: limit):
            lines.append(indent + prefix + "[")
            Self.appendElements(elements, to: &lines, indent: inner, maximumLength: maximumLength)
            lines.append(indent + "]" + suffix)
        default:
            var flat = indent + prefix
            appendFlat(to: &flat)
            lines.append(flat + suffix)
        }
    }

    /// A call whose long arguments are arrays, written with each array hugging the call: the
    /// short arguments on the lines that open and close the arrays, the elements alone one level
    /// in, so a call costs two lines more than its elements (an entity of the model literal:
    /// `Entity(name: "Dog", …, attributes: [` … `], relationships: [` … `])`). `nil` when a
    /// long argument is not an array or a line would be longer than `maximumLength`.
    private func huggingLines(
        name: String, arguments: [LiteralArgument], maximumLength: Int, indent: String, prefix: String, suffix: String
    ) -> [String]? {
        let inner = indent + "    "
        var lines: [String] = []
        var line = indent + prefix + name + "("
        var startsArguments = true
        var huggedAny = false
        for (position, argument) in arguments.enumerated() {
            if case .unbroken = argument.value { return nil }
            let label = argument.label.map { "\($0): " } ?? ""
            let separator = startsArguments ? "" : ", "
            let closing = position == arguments.count - 1 ? ")" + suffix : ","
            let room = maximumLength - line.utf8.count - separator.utf8.count - label.utf8.count - closing.utf8.count
            if argument.value.fitsOnOneLine(within: room) {
                line += separator + label
                argument.value.appendFlat(to: &line)
                startsArguments = false
                continue
            }
            guard case .array(let elements) = argument.value else { return nil }
            line += separator + label + "["
            guard line.utf8.count <= maximumLength else { return nil }
            lines.append(line)
            Self.appendElements(elements, to: &lines, indent: inner, maximumLength: maximumLength)
            line = indent + "]"
            startsArguments = false
            huggedAny = true
        }
        line += ")" + suffix
        guard huggedAny, line.utf8.count <= maximumLength else { return nil }
        lines.append(line)
        return lines
    }

    /// The elements of an array written over several lines: names (the entity constants) fill
    /// lines, anything else has a line (or lines) of its own.
    private static func appendElements(_ elements: [SwiftLiteral], to lines: inout [String], indent: String, maximumLength: Int) {
        guard elements.allSatisfy(\.isAtom) else {
            for element in elements {
                element.render(maximumLength: maximumLength, into: &lines, indent: indent, suffix: ",")
            }
            return
        }
        var filling = LineFilling(indent: indent, maximumLength: maximumLength)
        for element in elements {
            var text = ""
            element.appendFlat(to: &text)
            filling.add(text + ",", to: &lines)
        }
        filling.finish(into: &lines)
    }

    private var isAtom: Bool {
        if case .atom = self { return true }
        return false
    }

    /// Whether the one-line form is at most `limit` long; stops counting once it is longer,
    /// so the check costs at most `limit` per node whatever the size of the tree.
    private func fitsOnOneLine(within limit: Int) -> Bool {
        var remaining = limit
        return consume(&remaining)
    }

    private func consume(_ remaining: inout Int) -> Bool {
        switch self {
        case .unbroken(let literal):
            return literal.consume(&remaining)
        case .atom(let text):
            if text.utf8.contains(10) { return false }
            remaining -= text.utf8.count
        case .call(let name, let arguments):
            remaining -= name.utf8.count + 2 + max(0, arguments.count - 1) * 2
            for argument in arguments {
                if let label = argument.label { remaining -= label.utf8.count + 2 }
                guard remaining >= 0, argument.value.consume(&remaining) else { return false }
            }
        case .array(let elements):
            remaining -= 2 + max(0, elements.count - 1) * 2
            for element in elements {
                guard remaining >= 0, element.consume(&remaining) else { return false }
            }
        }
        return remaining >= 0
    }

    private func appendFlat(to text: inout String) {
        switch self {
        case .unbroken(let literal):
            literal.appendFlat(to: &text)
        case .atom(let atom):
            text += atom
        case .call(let name, let arguments):
            text += name + "("
            for (position, argument) in arguments.enumerated() {
                if position > 0 { text += ", " }
                if let label = argument.label { text += label + ": " }
                argument.value.appendFlat(to: &text)
            }
            text += ")"
        case .array(let elements):
            text += "["
            for (position, element) in elements.enumerated() {
                if position > 0 { text += ", " }
                element.appendFlat(to: &text)
            }
            text += "]"
        }
    }
}

/// `label: value` in a call.
struct LiteralArgument {
    var label: String?
    var value: SwiftLiteral
}

/// Short pieces sharing lines, each line filled up to `maximumLength` after `indent`.
private struct LineFilling {
    let indent: String
    let maximumLength: Int
    private var line = ""

    init(indent: String, maximumLength: Int) {
        self.indent = indent
        self.maximumLength = maximumLength
    }

    /// Adds `text` to the line being filled, first ending it in `lines` when `text` does not fit.
    mutating func add(_ text: String, to lines: inout [String]) {
        if line.isEmpty {
            line = text
        } else if indent.utf8.count + line.utf8.count + 1 + text.utf8.count <= maximumLength {
            line += " " + text
        } else {
            lines.append(indent + line)
            line = text
        }
    }

    /// Ends the line being filled, if any.
    mutating func finish(into lines: inout [String]) {
        if !line.isEmpty { lines.append(indent + line) }
        line = ""
    }
}
