import DataModel
import Foundation

/// The string side of predicates: `[c]`/`[d]` folding, `LIKE` patterns, `MATCHES` expressions.
enum StringMatching {
    /// The string as `[c]`/`[d]` compare it: case folded and/or accents removed. ASCII text
    /// takes a fast path that needs no Foundation call.
    static func fold(_ string: String, _ options: PredicateComparisonOptions) -> String {
        let caseInsensitive = options.contains(.caseInsensitive)
        let diacriticInsensitive = options.contains(.diacriticInsensitive)
        guard caseInsensitive || diacriticInsensitive else { return string }
        if string.utf8.allSatisfy({ $0 < 0x80 }) {
            guard caseInsensitive else { return string }
            return String(decoding: string.utf8.map { ($0 &- 65) < 26 ? $0 &+ 32 : $0 }, as: UTF8.self)
        }
        var foldOptions: String.CompareOptions = []
        if caseInsensitive { foldOptions.insert(.caseInsensitive) }
        if diacriticInsensitive { foldOptions.insert(.diacriticInsensitive) }
        return string.folding(options: foldOptions, locale: nil)
    }

    static func compare(_ a: String, _ b: String, _ options: PredicateComparisonOptions) -> ComparisonResult {
        let a = fold(a, options)
        let b = fold(b, options)
        return a < b ? .orderedAscending : (a == b ? .orderedSame : .orderedDescending)
    }

    /// Whether `string` begins with `prefix`, which is already folded. ASCII with `[c]` is
    /// compared byte by byte without building a folded copy, unless a non-ASCII byte follows
    /// the prefix (a combining mark there makes the last character another one).
    static func hasPrefix(_ string: String, foldedPrefix prefix: String, _ options: PredicateComparisonOptions) -> Bool {
        if options.contains(.caseInsensitive) && !options.contains(.diacriticInsensitive) {
            var bytes = string.utf8.makeIterator()
            var allASCII = true
            for expected in prefix.utf8 {
                guard let byte = bytes.next(), byte < 0x80, expected < 0x80 else {
                    allASCII = false
                    break
                }
                let lowered = (byte &- 65) < 26 ? byte &+ 32 : byte
                if lowered != expected { return false }
            }
            if allASCII, (bytes.next() ?? 0) < 0x80 { return true }
        }
        return fold(string, options).hasPrefix(prefix)
    }

    /// Whether `string` contains `part`, which is already folded. ASCII text (with or without
    /// `[c]`) is searched byte by byte, lowering as it goes, without a folded copy or a
    /// Foundation call; other text is folded and searched by Unicode rules, whole characters.
    static func contains(_ string: String, foldedPart part: String, _ options: PredicateComparisonOptions) -> Bool {
        var string = string
        var part = part
        let found = string.withUTF8 { haystack in part.withUTF8 { needle in asciiContains(haystack, needle, options) } }
        return found ?? fold(string, options).contains(part)
    }

    /// CONTAINS answered from UTF-8 bytes (the SQLite store answers from its own buffers with
    /// it), where the bytes are the whole answer: both ASCII and no `[d]`; `nil` otherwise.
    /// `needle` need not be folded: `[c]` lowers both sides.
    static func asciiContains(
        _ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>, _ options: PredicateComparisonOptions
    ) -> Bool? {
        guard !options.contains(.diacriticInsensitive) else { return nil }
        return asciiSearch(haystack, needle, lowering: options.contains(.caseInsensitive))
    }

    /// Whether `haystack` contains `needle`, both lowered with `lowering`; `nil` when either is
    /// not ASCII, whose characters may span several bytes.
    static func asciiSearch(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>, lowering: Bool) -> Bool? {
        guard isASCII(haystack), isASCII(needle) else { return nil }
        // As NSString's contains: nothing is contained in anything.
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        return lowering ? firstMatch(haystack, needle, lowering: true) : firstMatch(haystack, needle, lowering: false)
    }

    /// Whether every byte is below 0x80 (one pass the compiler vectorizes).
    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var bits: UInt8 = 0
        for byte in bytes { bits |= byte }
        return bits < 0x80
    }

    /// The search itself, `lowering` a constant in each of the two copies the compiler makes:
    /// 16 bytes at a time for the needle's first letter in either case, then byte by byte
    /// from each place it is found.
    @inline(__always)
    private static func firstMatch(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>, lowering: Bool) -> Bool {
        @inline(__always) func folded(_ byte: UInt8) -> UInt8 {
            lowering && (byte &- 65) < 26 ? byte | 0x20 : byte
        }
        @inline(__always) func matches(at start: Int) -> Bool {
            var offset = 1
            while offset < needle.count, folded(haystack[start + offset]) == folded(needle[offset]) { offset += 1 }
            return offset == needle.count
        }
        let first = folded(needle[0])
        // The other case of a letter (or the byte itself): either one starts a match.
        let other = lowering && (first &- 97) < 26 ? first & ~0x20 : first
        let starts = haystack.count - needle.count + 1
        var start = 0
        if let base = haystack.baseAddress {
            let firsts = SIMD16<UInt8>(repeating: first)
            let others = SIMD16<UInt8>(repeating: other)
            while start + 16 <= starts {
                let chunk = UnsafeRawPointer(base + start).loadUnaligned(as: SIMD16<UInt8>.self)
                let found = (chunk .== firsts) .| (chunk .== others)
                if any(found) {
                    for lane in 0..<16 where found[lane] && matches(at: start + lane) { return true }
                }
                start += 16
            }
        }
        while start < starts {
            if folded(haystack[start]) == first && matches(at: start) { return true }
            start += 1
        }
        return false
    }

    // MARK: LIKE

    /// A compiled `LIKE` pattern: `*` matches any run of characters, `?` exactly one, and a
    /// backslash makes the next character literal; every other character stands for itself.
    struct LikePattern {
        enum Element: Equatable {
            case character(Character)
            case anyOne
            case anyRun
        }

        let elements: [Element]
        let options: PredicateComparisonOptions

        init(_ pattern: String, options: PredicateComparisonOptions) {
            self.options = options
            var elements: [Element] = []
            var escaped = false
            for character in StringMatching.fold(pattern, options) {
                if escaped {
                    elements.append(.character(character))
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "*" {
                    if elements.last != .anyRun { elements.append(.anyRun) }
                } else if character == "?" {
                    elements.append(.anyOne)
                } else {
                    elements.append(.character(character))
                }
            }
            if escaped { elements.append(.character("\\")) }
            self.elements = elements
        }

        func matches(_ string: String) -> Bool {
            let text = Array(StringMatching.fold(string, options))
            // Greedy matching with one backtrack point per `*`, linear in practice.
            var t = 0, p = 0
            var starP = -1, starT = 0
            while t < text.count {
                if p < elements.count {
                    switch elements[p] {
                    case .anyRun:
                        starP = p
                        starT = t
                        p += 1
                        continue
                    case .anyOne:
                        t += 1
                        p += 1
                        continue
                    case .character(let c) where c == text[t]:
                        t += 1
                        p += 1
                        continue
                    default: break
                    }
                }
                guard starP >= 0 else { return false }
                p = starP + 1
                starT += 1
                t = starT
            }
            while p < elements.count, elements[p] == .anyRun { p += 1 }
            return p == elements.count
        }
    }

    // MARK: MATCHES

    /// A `MATCHES` regular expression. The whole string must match; as on macOS, `^` and `$`
    /// also match at line breaks and `.` matches a line break.
    struct RegularExpression {
        let expression: NSRegularExpression
        let options: PredicateComparisonOptions

        init(_ pattern: String, options: PredicateComparisonOptions) throws {
            self.options = options
            var regexOptions: NSRegularExpression.Options = [.anchorsMatchLines, .dotMatchesLineSeparators]
            if options.contains(.caseInsensitive) { regexOptions.insert(.caseInsensitive) }
            let folded = options.contains(.diacriticInsensitive)
                ? StringMatching.fold(pattern, [.diacriticInsensitive]) : pattern
            expression = try NSRegularExpression(pattern: "\\A(?:" + folded + ")\\z", options: regexOptions)
        }

        func matches(_ string: String) -> Bool {
            let subject = options.contains(.diacriticInsensitive)
                ? StringMatching.fold(string, [.diacriticInsensitive]) : string
            let range = NSRange(subject.startIndex..<subject.endIndex, in: subject)
            return expression.firstMatch(in: subject, options: [], range: range) != nil
        }
    }
}
