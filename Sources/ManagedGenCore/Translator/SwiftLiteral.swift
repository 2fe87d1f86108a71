/// A Swift expression built from calls, arrays and atoms, printed on one line when short and
/// one argument or element per line otherwise. Used to write the model as Swift values.
indirect enum SwiftLiteral {
    case atom(String)
    case call(String, [LiteralArgument])
    case array([SwiftLiteral])

    static func string(_ text: String) -> SwiftLiteral { .atom(SwiftNames.stringLiteral(text)) }

    /// The expression; lines after the first are indented relative to the first.
    func rendered(maximumLength: Int = 100) -> String {
        let flat = flatText
        if flat.count <= maximumLength && !flat.contains("\n") { return flat }
        switch self {
        case .atom(let text):
            return text
        case .call(let name, let arguments):
            let lines = arguments.map { argument in
                indent((argument.label.map { "\($0): " } ?? "") + argument.value.rendered(maximumLength: maximumLength - 4))
            }
            return "\(name)(\n\(lines.joined(separator: ",\n"))\n)"
        case .array(let elements):
            let lines = elements.map { indent($0.rendered(maximumLength: maximumLength - 4)) + "," }
            return "[\n\(lines.joined(separator: "\n"))\n]"
        }
    }

    private var flatText: String {
        switch self {
        case .atom(let text): text
        case .call(let name, let arguments):
            "\(name)(" + arguments.map { ($0.label.map { "\($0): " } ?? "") + $0.value.flatText }.joined(separator: ", ") + ")"
        case .array(let elements): "[" + elements.map(\.flatText).joined(separator: ", ") + "]"
        }
    }

    private func indent(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n")
    }
}

/// `label: value` in a call.
struct LiteralArgument {
    var label: String?
    var value: SwiftLiteral
}
