import Foundation

/// Reads the XML of an XML store file (``XMLStoreFormat``) into a tree of elements: elements,
/// attributes, text, the five predefined entities and character references, comments,
/// CDATA, and a prolog's declaration and doctype (skipped). Enough for the files the store
/// writes, and strict: anything else is an error naming the file and line, never a trap. The
/// runtime parses no XML otherwise, so it brings no XML library for this.
struct XMLStoreParser {
    struct Element {
        var name: String
        var attributes: [String: String] = [:]
        var children: [Element] = []
        /// The element's own text (its children's text not included).
        var text = ""

        func children(named name: String) -> [Element] { children.filter { $0.name == name } }
        func child(named name: String) -> Element? { children.first { $0.name == name } }
    }

    private let bytes: [UInt8]
    private let path: String
    private var position = 0
    /// Deeper nesting than a store file has is refused, so hostile input cannot exhaust the stack.
    private static let maximumDepth = 32

    /// The root element of `data`, the contents of the file at `path`.
    static func parse(_ data: Data, path: String) throws -> Element {
        var parser = XMLStoreParser(bytes: [UInt8](data), path: path)
        parser.skipMisc()
        guard parser.peek == UInt8(ascii: "<") else { throw parser.error("it does not start with an XML element") }
        let root = try parser.element(depth: 0)
        parser.skipMisc()
        guard parser.position == parser.bytes.count else { throw parser.error("there is more after the root element") }
        return root
    }

    private init(bytes: [UInt8], path: String) {
        self.bytes = bytes
        self.path = path
    }

    private var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

    private func error(_ message: String) -> ManagedObjectError {
        let line = bytes[..<min(position, bytes.count)].reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        return ManagedObjectError(.persistentStoreOpen, "the store file \(path) is not well-formed XML: \(message) (line \(line))")
    }

    private func starts(with text: String) -> Bool {
        let pattern = Array(text.utf8)
        return bytes.count - position >= pattern.count && bytes[position..<position + pattern.count].elementsEqual(pattern)
    }

    /// Moves past `terminator`; `false` (at the end) when it does not come.
    private mutating func skip(past terminator: String) -> Bool {
        while position < bytes.count {
            if starts(with: terminator) {
                position += terminator.utf8.count
                return true
            }
            position += 1
        }
        return false
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private mutating func skipSpace() {
        while let byte = peek, Self.isSpace(byte) { position += 1 }
    }

    /// Whitespace, declarations, comments and a doctype between elements of the prolog or after the root.
    private mutating func skipMisc() {
        while true {
            skipSpace()
            if starts(with: "<?") {
                if !skip(past: "?>") { return }
            } else if starts(with: "<!--") {
                if !skip(past: "-->") { return }
            } else if starts(with: "<!DOCTYPE") {
                if !skip(past: ">") { return }
            } else {
                return
            }
        }
    }

    private mutating func name() throws -> String {
        let start = position
        while let byte = peek, !Self.isSpace(byte), ![UInt8(ascii: ">"), UInt8(ascii: "/"), UInt8(ascii: "="), UInt8(ascii: "<")].contains(byte) {
            position += 1
        }
        guard position > start, let name = String(bytes: bytes[start..<position], encoding: .utf8) else { throw error("a name is missing") }
        return name
    }

    private mutating func expect(_ text: String) throws {
        guard starts(with: text) else { throw error("\(text) expected") }
        position += text.utf8.count
    }

    private mutating func element(depth: Int) throws -> Element {
        guard depth < Self.maximumDepth else { throw error("elements are nested deeper than \(Self.maximumDepth)") }
        try expect("<")
        var element = Element(name: try name())
        while true {
            skipSpace()
            if starts(with: "/>") {
                position += 2
                return element
            }
            if starts(with: ">") {
                position += 1
                break
            }
            let attribute = try name()
            skipSpace()
            try expect("=")
            skipSpace()
            guard let quote = peek, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { throw error("the value of \(attribute) is not quoted") }
            position += 1
            let start = position
            while let byte = peek, byte != quote {
                if byte == UInt8(ascii: "<") { throw error("< in the value of \(attribute)") }
                position += 1
            }
            guard peek == quote else { throw error("the value of \(attribute) does not end") }
            let value = try decoded(bytes[start..<position])
            position += 1
            guard element.attributes.updateValue(value, forKey: attribute) == nil else { throw error("\(attribute) appears twice in <\(element.name)>") }
        }
        var text: [UInt8] = []
        while true {
            guard position < bytes.count else { throw error("<\(element.name)> does not end") }
            if starts(with: "</") {
                position += 2
                let closing = try name()
                guard closing == element.name else { throw error("</\(closing)> closes <\(element.name)>") }
                skipSpace()
                try expect(">")
                element.text = try decoded(text[...])
                return element
            } else if starts(with: "<!--") {
                guard skip(past: "-->") else { throw error("a comment does not end") }
            } else if starts(with: "<![CDATA[") {
                position += 9
                let start = position
                guard skip(past: "]]>") else { throw error("a CDATA section does not end") }
                // Kept apart from entity decoding: `&` in CDATA is literal.
                text.append(contentsOf: Self.escapedAmpersands(bytes[start..<position - 3]))
            } else if peek == UInt8(ascii: "<") {
                element.children.append(try self.element(depth: depth + 1))
            } else {
                text.append(bytes[position])
                position += 1
            }
        }
    }

    private static func escapedAmpersands(_ raw: ArraySlice<UInt8>) -> [UInt8] {
        raw.flatMap { $0 == UInt8(ascii: "&") ? Array("&amp;".utf8) : [$0] }
    }

    /// Text with its entity and character references replaced, as UTF-8.
    private func decoded(_ raw: ArraySlice<UInt8>) throws -> String {
        var output: [UInt8] = []
        output.reserveCapacity(raw.count)
        var index = raw.startIndex
        while index < raw.endIndex {
            let byte = raw[index]
            guard byte == UInt8(ascii: "&") else {
                output.append(byte)
                index += 1
                continue
            }
            guard let end = raw[index...].firstIndex(of: UInt8(ascii: ";")), end - index <= 10,
                  let reference = String(bytes: raw[(index + 1)..<end], encoding: .utf8) else {
                throw error("an & that starts no reference")
            }
            switch reference {
            case "amp": output.append(UInt8(ascii: "&"))
            case "lt": output.append(UInt8(ascii: "<"))
            case "gt": output.append(UInt8(ascii: ">"))
            case "quot": output.append(UInt8(ascii: "\""))
            case "apos": output.append(UInt8(ascii: "'"))
            default:
                let scalar: Unicode.Scalar?
                if reference.hasPrefix("#x") {
                    scalar = UInt32(reference.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
                } else if reference.hasPrefix("#") {
                    scalar = UInt32(reference.dropFirst(1)).flatMap(Unicode.Scalar.init)
                } else {
                    scalar = nil
                }
                guard let scalar else { throw error("the reference &\(reference); is not one XML defines") }
                output.append(contentsOf: Array(String(Character(scalar)).utf8))
            }
            index = end + 1
        }
        guard let text = String(bytes: output, encoding: .utf8) else { throw error("text that is not UTF-8") }
        return text
    }
}
