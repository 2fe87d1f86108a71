/// One token of a predicate format string, with the offset (in Unicode scalars) it starts at.
struct PredicateToken: Sendable {
    enum Kind: Equatable, Sendable {
        /// A word: key, keyword or function name. `escaped` when written with `#`.
        case word(String, escaped: Bool)
        /// A word followed directly by `:`, as `sum:` in `sum:(x)`.
        case functionName(String)
        /// `@count`, `@sum` … (without the `@`).
        case collectionOperator(String)
        case string(String)
        case integer(Int)
        case double(Double)
        case argument(PredicateArgumentKind)
        case variable(String)
        /// Operators and punctuation: `==`, `(`, `,`, `**` …
        case symbol(String)
        case end
    }

    var kind: Kind
    var offset: Int
}

/// Splits a format string into tokens. Keywords are not told from keys here (the parser
/// decides, since a word can be either depending on where it stands).
struct PredicateLexer {
    private let scalars: [Unicode.Scalar]
    private var position = 0

    init(_ text: String) { scalars = Array(text.unicodeScalars) }

    /// The 1-based character column of a scalar offset.
    static func column(ofOffset offset: Int, in scalars: [Unicode.Scalar]) -> Int {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[0..<min(offset, scalars.count)])
        return String(view).count + 1
    }

    private func error(_ message: String, at offset: Int) -> PredicateSyntaxError {
        PredicateSyntaxError(message, column: Self.column(ofOffset: offset, in: scalars))
    }

    /// The whole string as tokens, ending with `.end`.
    mutating func tokenize() throws(PredicateSyntaxError) -> (tokens: [PredicateToken], scalars: [Unicode.Scalar]) {
        var tokens: [PredicateToken] = []
        while true {
            let token = try next()
            tokens.append(token)
            if token.kind == .end { return (tokens, scalars) }
        }
    }

    private func peek(_ ahead: Int = 0) -> Unicode.Scalar? {
        position + ahead < scalars.count ? scalars[position + ahead] : nil
    }

    private static func isWordStart(_ c: Unicode.Scalar) -> Bool {
        c == "_" || c.properties.isAlphabetic
    }

    private static func isWordPart(_ c: Unicode.Scalar) -> Bool {
        c == "_" || c.properties.isAlphabetic || c.properties.numericType != nil
    }

    private mutating func word() -> String {
        var text = String.UnicodeScalarView()
        while let c = peek(), Self.isWordPart(c) {
            text.append(c)
            position += 1
        }
        return String(text)
    }

    private static let symbols: [String] = [
        // Longest first, so `**` is not read as two `*`.
        "==", "!=", "<>", "<=", "=<", ">=", "=>", "&&", "||", "**", ":=",
        "=", "<", ">", "!", "+", "-", "*", "/", "(", ")", "{", "}", "[", "]", ",", ".",
    ]

    private mutating func next() throws(PredicateSyntaxError) -> PredicateToken {
        while let c = peek(), c.properties.isWhitespace { position += 1 }
        let start = position
        guard let c = peek() else { return PredicateToken(kind: .end, offset: start) }

        if c == "\"" || c == "'" { return PredicateToken(kind: .string(try quoted(c)), offset: start) }
        if c.properties.numericType != nil && ("0"..."9").contains(c)
            || c == "." && peek(1).map({ ("0"..."9").contains($0) }) == true {
            return PredicateToken(kind: try number(), offset: start)
        }
        if c == "#" {
            position += 1
            guard let first = peek(), Self.isWordStart(first) else {
                throw error("expected a name after '#'", at: start)
            }
            return PredicateToken(kind: .word(word(), escaped: true), offset: start)
        }
        if Self.isWordStart(c) {
            let name = word()
            // `sum:(x)` names a function with its colon; `:=` is an assignment.
            if peek() == ":" && peek(1) != "=" {
                position += 1
                return PredicateToken(kind: .functionName(name + ":"), offset: start)
            }
            return PredicateToken(kind: .word(name, escaped: false), offset: start)
        }
        if c == "$" {
            position += 1
            if peek() == "#" { position += 1 }
            guard let first = peek(), Self.isWordStart(first) else {
                throw error("expected a variable name after '$'", at: start)
            }
            return PredicateToken(kind: .variable(word()), offset: start)
        }
        if c == "@" {
            position += 1
            guard let first = peek(), Self.isWordStart(first) else {
                throw error("expected a collection operator name after '@' (such as @count)", at: start)
            }
            return PredicateToken(kind: .collectionOperator(word()), offset: start)
        }
        if c == "%" { return PredicateToken(kind: .argument(try argument()), offset: start) }
        for symbol in Self.symbols where matches(symbol) {
            position += symbol.unicodeScalars.count
            return PredicateToken(kind: .symbol(symbol), offset: start)
        }
        if c == "?" {
            throw error("'?' is not part of the predicate language; use %@ for an argument or $NAME for a variable", at: start)
        }
        throw error("unexpected character '\(c)'", at: start)
    }

    private func matches(_ symbol: String) -> Bool {
        var offset = 0
        for s in symbol.unicodeScalars {
            guard peek(offset) == s else { return false }
            offset += 1
        }
        return true
    }

    /// `%@`, `%K`, `%d`, `%ld`, `%llu`, `%f` …
    private mutating func argument() throws(PredicateSyntaxError) -> PredicateArgumentKind {
        let start = position
        position += 1
        switch peek() {
        case "@": position += 1; return .object
        case "K": position += 1; return .keyPath
        case "%":
            throw error("'%%' (a literal percent sign) can only appear inside a quoted string", at: start)
        default: break
        }
        // Length modifiers, which change nothing here: the argument is a Swift value.
        while let c = peek(), "hlqL".unicodeScalars.contains(c) { position += 1 }
        guard let conversion = peek() else {
            throw error("incomplete format specifier at the end", at: start)
        }
        position += 1
        switch conversion {
        case "d", "i", "D": return .signedInteger
        case "u", "U", "o", "O", "x", "X": return .unsignedInteger
        case "f", "F", "e", "E", "g", "G", "a", "A": return .floatingPoint
        case "c", "C": return .character
        case "s", "S": return .cString
        default:
            throw error("unsupported format specifier '%\(conversion)'; use %@, %K, %d, %u, %f, %c or %s", at: start)
        }
    }

    /// A quoted string, escapes resolved. A backslash before any other character keeps both,
    /// so regular expressions (`'\d+'`) read as written.
    private mutating func quoted(_ quote: Unicode.Scalar) throws(PredicateSyntaxError) -> String {
        let start = position
        position += 1
        var text = String.UnicodeScalarView()
        while true {
            guard let c = peek() else {
                throw error("unterminated string: the quote opened here is never closed", at: start)
            }
            position += 1
            if c == quote { return String(text) }
            guard c == "\\" else {
                text.append(c)
                continue
            }
            guard let escaped = peek() else {
                throw error("unterminated string: the quote opened here is never closed", at: start)
            }
            position += 1
            switch escaped {
            case "\\", "\"", "'": text.append(escaped)
            case "n": text.append("\n")
            case "t": text.append("\t")
            case "r": text.append("\r")
            case "0"..."7":
                // Up to three octal digits: `\0`, `\012`.
                var value = escaped.value - 48
                for _ in 0..<2 {
                    guard let d = peek(), ("0"..."7").contains(d) else { break }
                    value = value * 8 + d.value - 48
                    position += 1
                }
                text.append(Unicode.Scalar(value)!)
            case "x", "X", "u", "U":
                let count = escaped == "x" || escaped == "X" ? 2 : 4
                var value: UInt32 = 0
                for _ in 0..<count {
                    guard let h = peek(), let digit = Self.hexValue(h) else {
                        throw error("'\\\(escaped)' needs \(count) hexadecimal digits", at: position)
                    }
                    value = value * 16 + digit
                    position += 1
                }
                guard let scalar = Unicode.Scalar(value) else {
                    throw error("'\\\(escaped)' names no character", at: position - count - 2)
                }
                text.append(scalar)
            default:
                text.append("\\")
                text.append(escaped)
            }
        }
    }

    private static func hexValue(_ c: Unicode.Scalar) -> UInt32? {
        switch c {
        case "0"..."9": c.value - 48
        case "a"..."f": c.value - 87
        case "A"..."F": c.value - 55
        default: nil
        }
    }

    private mutating func number() throws(PredicateSyntaxError) -> PredicateToken.Kind {
        let start = position
        if peek() == "0", let radixLetter = peek(1), "xXoObB".unicodeScalars.contains(radixLetter) {
            position += 2
            let radix: UInt32 = switch radixLetter {
            case "x", "X": 16
            case "o", "O": 8
            default: 2
            }
            var digits = ""
            while let c = peek(), let digit = Self.hexValue(c), digit < radix {
                digits.unicodeScalars.append(c)
                position += 1
            }
            if let c = peek(), Self.isWordPart(c) {
                throw error("'\(c)' is not a digit of this base-\(radix) number", at: position)
            }
            guard !digits.isEmpty else { throw error("number has no digits after its prefix", at: start) }
            if let value = Int(digits, radix: Int(radix)) { return .integer(value) }
            if let value = UInt64(digits, radix: Int(radix)) { return .double(Double(value)) }
            throw error("number is too large", at: start)
        }
        var text = ""
        var isDouble = false
        func digits() {
            while let c = peek(), ("0"..."9").contains(c) {
                text.unicodeScalars.append(c)
                position += 1
            }
        }
        digits()
        if peek() == ".", let after = peek(1), ("0"..."9").contains(after) {
            isDouble = true
            text += "."
            position += 1
            digits()
        }
        if let e = peek(), e == "e" || e == "E" {
            var ahead = 1
            if peek(ahead) == "+" || peek(ahead) == "-" { ahead += 1 }
            if let d = peek(ahead), ("0"..."9").contains(d) {
                isDouble = true
                for _ in 0..<ahead {
                    text.unicodeScalars.append(peek()!)
                    position += 1
                }
                digits()
            }
        }
        if let c = peek(), Self.isWordPart(c) {
            throw error("unexpected '\(c)' after a number", at: position)
        }
        if text.hasPrefix(".") { text = "0" + text }
        if !isDouble, let value = Int(text) { return .integer(value) }
        guard let value = Double(text) else { throw error("invalid number", at: start) }
        return .double(value)
    }
}
