/// Writes syntax back as a format string. A tree the parser built prints as text that parses
/// back to the same tree: operators take their canonical spelling (`==`, `!=`, `<=`), strings
/// are double-quoted, nested compounds and arithmetic are parenthesized, reserved words used
/// as keys get their `#`.
public struct PredicatePrinter {
    /// Renders a format argument; `nil` writes its specifier (`%@`, `%K` …).
    public var argument: (_ index: Int, _ kind: PredicateArgumentKind) -> String?
    /// Renders a `$VARIABLE`; `nil` writes `$NAME`.
    public var variable: (_ name: String) -> String?

    public init(
        argument: @escaping (_ index: Int, _ kind: PredicateArgumentKind) -> String? = { _, _ in nil },
        variable: @escaping (_ name: String) -> String? = { _ in nil }
    ) {
        self.argument = argument
        self.variable = variable
    }

    public func format(_ predicate: PredicateSyntax) -> String {
        switch predicate {
        case .value(let value):
            return value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .comparison(let comparison):
            return format(comparison)
        case .and(let operands):
            return compound(operands, "AND", empty: "TRUEPREDICATE")
        case .or(let operands):
            return compound(operands, "OR", empty: "FALSEPREDICATE")
        case .not(let operand):
            switch operand {
            case .and(let list) where list.count > 1: return "NOT (\(format(operand)))"
            case .or(let list) where list.count > 1: return "NOT (\(format(operand)))"
            default: return "NOT " + format(operand)
            }
        }
    }

    private func compound(_ operands: [PredicateSyntax], _ word: String, empty: String) -> String {
        if operands.isEmpty { return empty }
        return operands.map { operand in
            switch operand {
            case .and(let list) where list.count != 1, .or(let list) where list.count != 1:
                "(\(format(operand)))"
            default:
                format(operand)
            }
        }.joined(separator: " \(word) ")
    }

    public func format(_ comparison: PredicateComparison) -> String {
        var text = comparison.modifier == .direct ? "" : comparison.modifier.rawValue + " "
        text += format(comparison.left)
        text += " " + comparison.operatorType.spelling
        if !comparison.options.isEmpty { text += "[\(comparison.options.letters)]" }
        text += " " + format(comparison.right)
        return text
    }

    public func format(_ expression: PredicateExpressionSyntax) -> String {
        switch expression {
        case .evaluatedObject:
            return "SELF"
        case .keyPath(let path):
            return Self.keyPathText(path)
        case .keyPathOn(let base, let path):
            return operand(base, parenthesizeNegativeNumbers: true) + "." + Self.keyPathText(path)
        case .literal(let literal):
            return Self.literalText(literal)
        case .argument(let index, let kind):
            return argument(index, kind) ?? kind.specifier
        case .variable(let name):
            return variable(name) ?? "$" + name
        case .aggregate(let items):
            return "{" + items.map(format).joined(separator: ", ") + "}"
        case .function(let name, let arguments):
            return name + "(" + arguments.map(format).joined(separator: ", ") + ")"
        case .arithmetic(let op, let left, let right):
            return operand(left, parenthesizeNegativeNumbers: false) + " \(op.rawValue) "
                + operand(right, parenthesizeNegativeNumbers: false)
        case .negation(let operandExpression):
            let text = operand(operandExpression, parenthesizeNegativeNumbers: true)
            // `-` before a digit reads back as a negative literal: `-5`, and so `-5.key`, `-5 ** 2`.
            return text.first.map { ("0"..."9").contains($0) || $0 == "." } == true ? "-(\(text))" : "-" + text
        case .index(let base, let subscriptIndex):
            let inner: String = switch subscriptIndex {
            case .first: "FIRST"
            case .last: "LAST"
            case .size: "SIZE"
            case .expression(let value): format(value)
            }
            return operand(base, parenthesizeNegativeNumbers: true) + "[" + inner + "]"
        case .subquery(let collection, let variable, let predicate):
            return "SUBQUERY(\(format(collection)), $\(variable), \(format(predicate)))"
        case .ternary(let condition, let ifTrue, let ifFalse):
            return "TERNARY(\(format(condition)), \(format(ifTrue)), \(format(ifFalse)))"
        case .assignment(let variable, let value):
            return "$\(variable) := \(format(value))"
        }
    }

    /// An operand of an operator: compound expressions are parenthesized, so the tree's shape
    /// survives without precedence rules in the printer.
    private func operand(_ expression: PredicateExpressionSyntax, parenthesizeNegativeNumbers: Bool) -> String {
        switch expression {
        case .arithmetic, .negation, .assignment:
            return "(\(format(expression)))"
        case .literal(.integer(let value)) where value < 0 && parenthesizeNegativeNumbers:
            return "(\(format(expression)))"
        case .literal(.double(let value)) where value.sign == .minus && parenthesizeNegativeNumbers:
            return "(\(format(expression)))"
        default:
            return format(expression)
        }
    }

    static func keyPathText(_ path: String) -> String {
        path.split(separator: ".", omittingEmptySubsequences: false).map { component in
            PredicateSyntax.reservedWords.contains(component.uppercased()) ? "#" + component : String(component)
        }.joined(separator: ".")
    }

    /// A literal as the format language writes it: strings double-quoted with `\` escapes.
    public static func literalText(_ literal: PredicateLiteral) -> String {
        switch literal {
        case .null: return "nil"
        case .bool(let value): return value ? "TRUE" : "FALSE"
        case .integer(let value): return String(value)
        case .double(let value):
            // Swift writes 2.0 and 1e-05, both of which read back as doubles. An infinity is
            // written as a number too large for a double, which reads back as the same literal
            // (`1.0 / 0.0` would read back as arithmetic); no format string reads as NaN.
            return value.isFinite ? "\(value)" : (value.isNaN ? "(0.0 / 0.0)" : (value < 0 ? "-1e999" : "1e999"))
        case .string(let text): return quoted(text)
        }
    }

    public static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}

extension PredicateSyntax: CustomStringConvertible {
    /// The predicate as a format string, arguments as their specifiers (`%@`).
    public var format: String { PredicatePrinter().format(self) }
    public var description: String { format }
}

extension PredicateExpressionSyntax: CustomStringConvertible {
    /// The expression as a format string.
    public var format: String { PredicatePrinter().format(self) }
    public var description: String { format }
}
