/// Breaks a line of generated code, or a comment, that is longer than the line limit the way a
/// person would. A comment breaks at spaces onto lines of the same `//` or `///`. Code breaks at
/// the last bracket pair on the line whose opening and closing lines fit: a call's arguments or a
/// literal's elements one to a line, one level in, the closing bracket back at the start; a
/// closure's or accessor's body on a line of its own between its braces. A sole bracketed
/// argument hugs its call (`self.propertyNames([` … `])`). With no such pair, a value goes on
/// the next line, one level in, after its `=` or after the key of a dictionary entry
/// (`"Key":`). What still does not fit is broken again, one level further in; a line with
/// nowhere to break is left as it is.
struct LineWrapping {
    let maximumLength: Int

    /// The lines `line` is written on when it is indented by `indentWidth` columns, each without
    /// that indentation (lines after the first carry their own, relative to it).
    func lines(_ line: String, indentWidth: Int) -> [String] {
        guard !fits(line, indentWidth) else { return [line] }
        // A line with indentation of its own (a continuation in a multi-line body) is broken
        // after it, and every line it is broken into keeps it.
        let ownIndent = line.prefix { $0 == " " }
        guard ownIndent.isEmpty else {
            return lines(String(line.dropFirst(ownIndent.count)), indentWidth: indentWidth + ownIndent.count).map { ownIndent + $0 }
        }
        let characters = Array(line)
        if characters.starts(with: ["/", "/"]) {
            return commentLines(characters, indentWidth: indentWidth)
        }
        return codeLines(characters, indentWidth: indentWidth)
    }

    private func fits(_ line: String, _ indentWidth: Int) -> Bool {
        // UTF-8 bytes are at least as many as characters: most lines are decided without counting characters.
        line.utf8.count + indentWidth <= maximumLength || line.count + indentWidth <= maximumLength
    }

    /// `// words…` filled up to the limit, every line with the same marker (`//` or `///`).
    private func commentLines(_ characters: [Character], indentWidth: Int) -> [String] {
        let text = String(characters)
        let markerEnd = text.firstIndex { $0 != "/" && $0 != " " } ?? text.endIndex
        let marker = String(text[..<markerEnd])
        let words = text[markerEnd...].split(separator: " ")
        guard words.count > 1 else { return [text] }
        let room = maximumLength - indentWidth - marker.count
        var result: [String] = []
        var current = ""
        for word in words {
            if current.isEmpty {
                current = String(word)
            } else if current.count + 1 + word.count <= room {
                current += " " + word
            } else {
                result.append(marker + current)
                current = String(word)
            }
        }
        result.append(marker + current)
        return result
    }

    private func codeLines(_ characters: [Character], indentWidth: Int) -> [String] {
        guard let scan = BracketScan(characters) else { return [String(characters)] }
        guard let chosen = breakableGroup(in: scan, indentWidth: indentWidth) else {
            // `name = value` or `"Key": value`: the value on the next line, one level in.
            guard let split = scan.valueStarts.first else { return [String(characters)] }
            let head = String(characters[..<split]).trimmingSpaces
            let value = String(characters[split...]).trimmingSpaces
            return lines(head, indentWidth: indentWidth) + lines(value, indentWidth: indentWidth + 4).map { "    " + $0 }
        }
        // A sole bracketed argument (or labelled one) hugs: break inside it instead.
        var group = chosen
        var opening = chosen.open
        while group.kind != .brace, let inner = scan.soleGroup(in: group), inner.kind != .brace {
            group = inner
            opening = inner.open
        }
        let head = String(characters[...opening]).trimmingTrailingSpaces
        let tail = String(characters[group.close...])
        var result = lines(head, indentWidth: indentWidth)
        let items = scan.items(of: group).map { String(characters[$0]).trimmingSpaces }.filter { !$0.isEmpty }
        for (position, item) in items.enumerated() {
            let separator = group.kind == .brace || position == items.count - 1 ? "" : ","
            result += lines(item + separator, indentWidth: indentWidth + 4).map { "    " + $0 }
        }
        result += lines(tail, indentWidth: indentWidth)
        return result
    }

    /// The bracket pair to break: among the outermost pairs with something inside whose closing
    /// line (the closing bracket and what follows it) fits, the last whose opening fits too, else
    /// the last (its opening line is broken again). None when no closing line would fit: breaking
    /// `@_optimize(none) private static func …` at `(none)` helps nothing.
    private func breakableGroup(in scan: BracketScan, indentWidth: Int) -> BracketScan.Group? {
        let candidates = scan.groups.filter { scan.hasContent($0) }
        guard let depth = candidates.map(\.depth).min() else { return nil }
        let outermost = candidates.filter {
            $0.depth == depth && indentWidth + scan.characters.count - $0.close <= maximumLength
        }
        return outermost.last { indentWidth + $0.open + 1 <= maximumLength } ?? outermost.last
    }
}

/// The bracket pairs and commas of one line of code, outside string literals and comments.
private struct BracketScan {
    enum Kind { case parenthesis, square, brace }

    struct Group {
        var kind: Kind
        var open: Int
        var close: Int
        /// How many pairs enclose this one.
        var depth: Int
    }

    let characters: [Character]
    private(set) var groups: [Group] = []
    /// Commas, with the depth of the pair they separate items of (the pair's depth + 1).
    private(set) var commas: [(offset: Int, depth: Int)] = []
    /// Where a value starts outside any brackets: after ` = ` or after a string key's `:`.
    private(set) var valueStarts: [Int] = []

    /// `nil` when the line is not one this can read: a multi-line string, brackets that do not match.
    init?(_ characters: [Character]) {
        self.characters = characters
        var stack: [(kind: Kind, offset: Int)] = []
        var index = 0
        while index < characters.count {
            let character = characters[index]
            switch character {
            case "\"", "#":
                guard let end = Self.endOfString(characters, from: index) else { return nil }
                if stack.isEmpty && end < characters.count && characters[end] == ":" && end > index + 1 { valueStarts.append(end + 1) }
                index = end
                continue
            case "=" where stack.isEmpty && index > 0 && characters[index - 1] == " "
                && index + 1 < characters.count && characters[index + 1] == " ":
                valueStarts.append(index + 1)
            case "/" where index + 1 < characters.count && (characters[index + 1] == "/" || characters[index + 1] == "*"):
                index = characters.count
                continue
            case "(", "[", "{":
                stack.append((Self.kind(character), index))
            case ")", "]", "}":
                guard let top = stack.popLast(), top.kind == Self.kind(character) else { return nil }
                groups.append(Group(kind: top.kind, open: top.offset, close: index, depth: stack.count))
            case ",":
                commas.append((index, stack.count))
            default:
                break
            }
            index += 1
        }
    }

    private static func kind(_ bracket: Character) -> Kind {
        switch bracket {
        case "(", ")": .parenthesis
        case "[", "]": .square
        default: .brace
        }
    }

    /// The offset after the string literal starting at `start` (`"…"` or raw `#"…"#`), or
    /// `start + 1` for a `#` that starts none; `nil` for a multi-line or unterminated string.
    private static func endOfString(_ characters: [Character], from start: Int) -> Int? {
        var index = start
        var hashes = 0
        while index < characters.count && characters[index] == "#" {
            hashes += 1
            index += 1
        }
        guard index < characters.count, characters[index] == "\"" else { return start + 1 }
        if index + 2 < characters.count && characters[index + 1] == "\"" && characters[index + 2] == "\"" { return nil }
        index += 1
        while index < characters.count {
            let character = characters[index]
            if character == "\"" {
                var closing = 0
                while closing < hashes && index + 1 + closing < characters.count && characters[index + 1 + closing] == "#" { closing += 1 }
                if closing == hashes { return index + 1 + hashes }
            } else if character == "\\" && Self.escapeHashes(characters, after: index) == hashes {
                let next = index + 1 + hashes
                guard next < characters.count else { return nil }
                if characters[next] == "(" {
                    // An interpolation: code up to its closing parenthesis, strings included.
                    guard let end = endOfInterpolation(characters, from: next) else { return nil }
                    index = end
                    continue
                }
                index = next
            }
            index += 1
        }
        return nil
    }

    private static func escapeHashes(_ characters: [Character], after backslash: Int) -> Int {
        var count = 0
        while backslash + 1 + count < characters.count && characters[backslash + 1 + count] == "#" { count += 1 }
        return count
    }

    /// The offset after the `)` closing the interpolation whose `(` is at `open`.
    private static func endOfInterpolation(_ characters: [Character], from open: Int) -> Int? {
        var depth = 0
        var index = open
        while index < characters.count {
            switch characters[index] {
            case "\"", "#":
                guard let end = endOfString(characters, from: index) else { return nil }
                index = end
                continue
            case "(":
                depth += 1
            case ")":
                depth -= 1
                if depth == 0 { return index + 1 }
            default:
                break
            }
            index += 1
        }
        return nil
    }

    func hasContent(_ group: Group) -> Bool {
        characters[(group.open + 1)..<group.close].contains { $0 != " " }
    }

    /// The ranges of the items between the brackets of `group`: split at its commas, except a
    /// closure's or accessor's body, which is one item.
    func items(of group: Group) -> [Range<Int>] {
        let inside = (group.open + 1)..<group.close
        guard group.kind != .brace else { return [inside] }
        var ranges: [Range<Int>] = []
        var start = inside.lowerBound
        for comma in commas where comma.depth == group.depth + 1 && inside.contains(comma.offset) {
            ranges.append(start..<comma.offset)
            start = comma.offset + 1
        }
        ranges.append(start..<inside.upperBound)
        return ranges
    }

    /// The pair that is all of `group`'s content but for an argument label (`[…]` in
    /// `propertyNames([…])`, `label: […]`), if there is one.
    func soleGroup(in group: Group) -> Group? {
        let inside = (group.open + 1)..<group.close
        guard !commas.contains(where: { $0.depth == group.depth + 1 && inside.contains($0.offset) }),
              let last = inside.last(where: { characters[$0] != " " }),
              let inner = groups.first(where: { $0.depth == group.depth + 1 && $0.close == last }) else { return nil }
        let before = String(characters[inside.lowerBound..<inner.open]).trimmingSpaces
        guard before.isEmpty || (before.hasSuffix(":") && SwiftNames.isIdentifier(String(before.dropLast()))) else { return nil }
        return inner
    }
}

extension String {
    var trimmingSpaces: String {
        var result = Substring(self)
        while result.first == " " { result.removeFirst() }
        while result.last == " " { result.removeLast() }
        return String(result)
    }
}
