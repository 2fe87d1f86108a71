/// Prints structured Swift as deterministic text: 4-space indentation, declarations in the order
/// given, a member with a one-line body on one line when that fits, one blank line between
/// members (in extensions and enums none between consecutive one-line members), no line longer
/// than `maximumLineLength` that can be broken (`LineWrapping`), `\n` line endings and a
/// trailing newline.
public struct TextRenderer: Sendable {
    /// The longest line written: longer signatures put one parameter on each line, longer
    /// members of one line get their body on lines of its own, and longer lines are broken.
    public var maximumLineLength: Int

    /// The longest line generated code has: 120 columns.
    public static let defaultMaximumLineLength = 120

    public init(maximumLineLength: Int = defaultMaximumLineLength) {
        self.maximumLineLength = maximumLineLength
    }

    /// The text of a file.
    public func render(_ file: SwiftFile) -> String {
        var writer = LineWriter(wrapping: LineWrapping(maximumLength: maximumLineLength))
        for comment in file.headerComments { writer.line("// \(comment)".trimmingTrailingSpaces) }
        if !file.headerComments.isEmpty { writer.blank() }
        for item in file.imports { writer.line((item.spiGroup.map { "@_spi(\($0)) " } ?? "") + "import \(item.module)") }
        if !file.imports.isEmpty { writer.blank() }
        renderMembers(file.declarations, separateAll: true, into: &writer)
        return writer.text
    }

    private func renderMembers(_ members: [Declaration], separateAll: Bool, into writer: inout LineWriter) {
        var previousWasCompact = false
        for (index, member) in members.enumerated() {
            let compact = oneLine(member, indentLevel: writer.indentLevel) != nil
            if index > 0 && (separateAll || !(compact && previousWasCompact)) { writer.blank() }
            render(member, into: &writer)
            previousWasCompact = compact
        }
    }

    /// The declaration as one line (its documentation and comments aside), when it has that
    /// form and fits within the line limit: no members or body, or a one-line body (a property's
    /// one-line getter and setter) after a signature that fits on one line. One-line members
    /// stay together.
    private func oneLine(_ declaration: Declaration, indentLevel: Int) -> String? {
        let line: String
        switch declaration.kind {
        case .enumCase(let name):
            return "case \(name)"
        case .typeAlias(let name, let access, let type):
            line = prefix(access, []) + "typealias \(name) = \(type)"
        case .type(let type):
            guard type.members.isEmpty else { return nil }
            line = typeHead(type) + " {}"
        case .extension(let ext):
            guard ext.members.isEmpty else { return nil }
            line = extensionHead(ext) + " {}"
        case .variable(let variable):
            let head = variableHead(variable)
            if let initializer = variable.initializer {
                line = "\(head) = \(initializer)"
            } else if let getter = variable.getter {
                guard let get = singleLine(getter) else { return nil }
                if let setter = variable.setter {
                    guard let set = singleLine(setter) else { return nil }
                    line = "\(head) { get { \(get) } set { \(set) } }"
                } else {
                    line = "\(head) { \(get) }"
                }
            } else {
                line = head
            }
        case .function(let function):
            guard let body = function.body.isEmpty ? "" : singleLine(function.body) else { return nil }
            let head = signature(functionHead(function), function.parameters,
                                 isThrowing: function.isThrowing, returnType: function.returnType, indentLevel)
            line = body.isEmpty ? "\(head) {}" : "\(head) { \(body) }"
        case .conditional:
            return nil
        case .initializer(let initializer):
            guard initializer.body.isEmpty else { return nil }
            line = signature(prefix(initializer.access, []) + "init", initializer.parameters, isThrowing: false, returnType: nil, indentLevel) + " {}"
        }
        guard !line.utf8.contains(10), fits(line, indentLevel: indentLevel) else { return nil }
        return line
    }

    private func fits(_ line: String, indentLevel: Int) -> Bool {
        let room = maximumLineLength - indentLevel * 4
        return line.utf8.count <= room || line.count <= room
    }

    private func singleLine(_ body: [String]) -> String? {
        body.count == 1 && !body[0].utf8.contains(10) ? body[0] : nil
    }

    private func render(_ declaration: Declaration, into writer: inout LineWriter) {
        for line in declaration.documentation { writer.line("/// \(line)".trimmingTrailingSpaces) }
        for line in declaration.comments { writer.line("// \(line)".trimmingTrailingSpaces) }
        if let line = oneLine(declaration, indentLevel: writer.indentLevel) {
            writer.line(line)
            return
        }
        switch declaration.kind {
        case .type(let type):
            renderBlock(typeHead(type), type.members, separateAll: false, into: &writer)
        case .extension(let ext):
            renderBlock(extensionHead(ext), ext.members, separateAll: false, into: &writer)
        case .variable(let variable):
            render(variable, into: &writer)
        case .function(let function):
            var head = signature(functionHead(function), function.parameters,
                                 isThrowing: function.isThrowing, returnType: function.returnType, writer.indentLevel)
            // Attributes that make the signature's line too long get a line of their own.
            if !function.attributes.isEmpty,
               function.parameters.isEmpty && head.contains("\n") || !fits(String(head.prefix { $0 != "\n" }) + " {", indentLevel: writer.indentLevel) {
                head = function.attributes.joined(separator: " ") + "\n" + signature(
                    functionHead(function, withAttributes: false), function.parameters,
                    isThrowing: function.isThrowing, returnType: function.returnType, writer.indentLevel)
            }
            renderBody(head, function.body, into: &writer)
        case .initializer(let initializer):
            let head = signature(prefix(initializer.access, []) + "init", initializer.parameters, isThrowing: false, returnType: nil, writer.indentLevel)
            renderBody(head, initializer.body, into: &writer)
        case .enumCase(let name):
            writer.line("case \(name)")
        case .typeAlias(let name, let access, let type):
            writer.line(prefix(access, []) + "typealias \(name) = \(type)")
        case .conditional(let condition, let declarations):
            writer.line("#if \(condition)")
            renderMembers(declarations, separateAll: true, into: &writer)
            writer.line("#endif")
        }
    }

    private func functionHead(_ function: FunctionDeclaration, withAttributes: Bool = true) -> String {
        (withAttributes ? function.attributes.map { "\($0) " }.joined() : "") + prefix(function.access, function.modifiers) + "func \(function.name)"
    }

    private func typeHead(_ type: TypeDeclaration) -> String {
        var head = prefix(type.access, [])
        if type.isFinal { head += "final " }
        head += "\(type.kind.rawValue) \(type.name)"
        if !type.inheritance.isEmpty { head += ": " + type.inheritance.joined(separator: ", ") }
        return head
    }

    private func extensionHead(_ ext: ExtensionDeclaration) -> String {
        var head = prefix(ext.access, []) + "extension \(ext.extendedType)"
        if !ext.conformances.isEmpty { head += ": " + ext.conformances.joined(separator: ", ") }
        return head
    }

    private func variableHead(_ variable: VariableDeclaration) -> String {
        var head = variable.attributes.map { "\($0) " }.joined() + prefix(variable.access, variable.modifiers) + (variable.isLet ? "let " : "var ") + variable.name
        if let type = variable.type { head += ": \(type)" }
        return head
    }

    private func render(_ variable: VariableDeclaration, into writer: inout LineWriter) {
        let head = variableHead(variable)
        if let initializer = variable.initializer {
            writer.line("\(head) = \(initializer)")
            return
        }
        guard let getter = variable.getter else {
            writer.line(head)
            return
        }
        guard let setter = variable.setter else {
            if getter.count == 1 && !getter[0].utf8.contains(10) && fits("\(head) { \(getter[0]) }", indentLevel: writer.indentLevel) {
                writer.line("\(head) { \(getter[0]) }")
            } else {
                renderBody(head, getter, into: &writer)
            }
            return
        }
        writer.line("\(head) {")
        writer.indented { writer in
            renderAccessor("get", getter, into: &writer)
            renderAccessor("set", setter, into: &writer)
        }
        writer.line("}")
    }

    private func renderAccessor(_ keyword: String, _ body: [String], into writer: inout LineWriter) {
        if body.count == 1 && fits("\(keyword) { \(body[0]) }", indentLevel: writer.indentLevel) {
            writer.line("\(keyword) { \(body[0]) }")
        } else {
            renderBody(keyword, body, into: &writer)
        }
    }

    /// `head {` body `}`; a one-line body of a computed property stays on one line.
    private func renderBody(_ head: String, _ body: [String], into writer: inout LineWriter) {
        if body.isEmpty {
            writer.line("\(head) {}")
            return
        }
        writer.line("\(head) {")
        writer.indented { writer in
            for line in body { writer.line(line) }
        }
        writer.line("}")
    }

    private func renderBlock(_ head: String, _ members: [Declaration], separateAll: Bool, into writer: inout LineWriter) {
        if members.isEmpty {
            writer.line("\(head) {}")
            return
        }
        writer.line("\(head) {")
        writer.indented { writer in renderMembers(members, separateAll: separateAll, into: &writer) }
        writer.line("}")
    }

    private func prefix(_ access: AccessModifier?, _ modifiers: [MemberModifier]) -> String {
        var text = access.map { "\($0.rawValue) " } ?? ""
        for modifier in modifiers { text += "\(modifier.rawValue) " }
        return text
    }

    private func signature(_ head: String, _ parameters: [Parameter], isThrowing: Bool, returnType: String?, _ indentLevel: Int) -> String {
        let rendered = parameters.map { parameter in
            var text = parameter.label.map { "\($0) " } ?? ""
            text += "\(parameter.name): \(parameter.type)"
            if let value = parameter.defaultValue { text += " = \(value)" }
            return text
        }
        var tail = isThrowing ? " throws" : ""
        if let returnType { tail += " -> \(returnType)" }
        let oneLine = "\(head)(\(rendered.joined(separator: ", ")))\(tail)"
        if oneLine.utf8.count + indentLevel * 4 + 2 <= maximumLineLength { return oneLine }
        // No parameters to break at (`fetchRequest() -> ManagedObjects.FetchRequest<LongClassName>`):
        // the result type goes on a line of its own.
        if rendered.isEmpty && !tail.isEmpty { return "\(head)()\n   \(tail)" }
        if rendered.count < 2 { return oneLine }
        let lines = rendered.map { "    " + $0 }.joined(separator: ",\n")
        return "\(head)(\n\(lines)\n)\(tail)"
    }
}

/// Collects indented lines. A line may contain `\n` (a wrapped signature, a multi-line
/// literal); each of its parts is indented. A line too long for the limit is broken.
struct LineWriter {
    let wrapping: LineWrapping
    private(set) var lines: [String] = []
    private(set) var indentLevel = 0
    private var indent = ""

    init(wrapping: LineWrapping) {
        self.wrapping = wrapping
    }

    /// Adds a line; text with `\n` in it is several lines, each indented to the current level.
    mutating func line(_ text: String) {
        guard text.utf8.contains(10) else {
            append(text)
            return
        }
        for part in text.utf8.split(separator: 10, omittingEmptySubsequences: false) {
            append(String(Substring(part)))
        }
    }

    private mutating func append(_ text: String) {
        guard !text.isEmpty else {
            lines.append("")
            return
        }
        for part in wrapping.lines(text, indentWidth: indent.utf8.count) { lines.append(indent + part) }
    }

    mutating func blank() { lines.append("") }

    mutating func indented(_ body: (inout LineWriter) -> Void) {
        indentLevel += 1
        indent = String(repeating: "    ", count: indentLevel)
        body(&self)
        indentLevel -= 1
        indent = String(repeating: "    ", count: indentLevel)
    }

    var text: String {
        var result = ""
        result.reserveCapacity(lines.reduce(0) { $0 + $1.utf8.count + 1 })
        for line in lines {
            result += line
            result += "\n"
        }
        return result
    }
}

extension String {
    var trimmingTrailingSpaces: String {
        var result = self
        while result.last == " " { result.removeLast() }
        return result
    }
}
