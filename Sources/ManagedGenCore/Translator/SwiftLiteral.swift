/// A Swift expression built from calls, arrays and atoms, printed on one line when short and
/// one argument or element per line otherwise. Used to write the model as Swift values.
indirect enum SwiftLiteral {
    case atom(String)
    case call(String, [LiteralArgument])
    case array([SwiftLiteral])

    static func string(_ text: String) -> SwiftLiteral { .atom(SwiftNames.stringLiteral(text)) }

    /// The expression; lines after the first are indented relative to the first.
    func rendered(maximumLength: Int = 100) -> String {
        var lines: [String] = []
        render(maximumLength: maximumLength, into: &lines, indent: "")
        return lines.joined(separator: "\n")
    }

    /// Appends the expression's lines, the first one as `indent + prefix + …` is the caller's
    /// business: here the first line starts with `indent`.
    private func render(maximumLength: Int, into lines: inout [String], indent: String, prefix: String = "", suffix: String = "") {
        if fitsOnOneLine(within: maximumLength - indent.utf8.count - prefix.utf8.count - suffix.utf8.count) {
            var flat = indent + prefix
            appendFlat(to: &flat)
            lines.append(flat + suffix)
            return
        }
        let inner = indent + "    "
        switch self {
        case .atom(let text):
            lines.append(indent + prefix + text + suffix)
        case .call(let name, let arguments):
            lines.append(indent + prefix + name + "(")
            for (position, argument) in arguments.enumerated() {
                argument.value.render(
                    maximumLength: maximumLength, into: &lines, indent: inner,
                    prefix: argument.label.map { "\($0): " } ?? "", suffix: position == arguments.count - 1 ? "" : ",")
            }
            lines.append(indent + ")" + suffix)
        case .array(let elements):
            lines.append(indent + prefix + "[")
            for element in elements {
                element.render(maximumLength: maximumLength, into: &lines, indent: inner, suffix: ",")
            }
            lines.append(indent + "]" + suffix)
        }
    }

    /// Whether the one-line form is at most `limit` long; stops counting once it is longer,
    /// so the check costs at most `limit` per node whatever the size of the tree.
    private func fitsOnOneLine(within limit: Int) -> Bool {
        var remaining = limit
        return consume(&remaining)
    }

    private func consume(_ remaining: inout Int) -> Bool {
        switch self {
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
