internal import CLibXML2

/// Bounds on what the reader accepts, so that a malformed or hostile file ends in a diagnostic
/// quickly and in bounded memory instead of exhausting the machine.
public struct ReaderLimits: Hashable, Sendable {
    /// Files larger than this are refused before parsing. Real model files are well under 1 MB;
    /// a synthetic 1,000-entity model is about 2 MB.
    public var maxFileSize: Int
    /// The deepest element nesting accepted. Model files nest at most six levels.
    public var maxDepth: Int
    /// The most elements plus attributes accepted in one document (a 1,000-entity model has
    /// about 100,000). Bounds the memory of the parsed tree independently of the file size.
    public var maxNodes: Int

    public init(maxFileSize: Int = 64 << 20, maxDepth: Int = 64, maxNodes: Int = 2_000_000) {
        self.maxFileSize = maxFileSize
        self.maxDepth = maxDepth
        self.maxNodes = maxNodes
    }

    public static let `default` = ReaderLimits()
}

/// libxml2's global state is set up once; Swift runs a global's initialiser exactly once, even
/// when several threads reach it together. Parsing itself uses one parser context per document.
private let libXMLInitialization: Void = xmlInitParser()

/// A parsed XML document, read with libxml2 and locked down for untrusted input:
///
/// - no network access (`XML_PARSE_NONET`), no DTD loading, no entity substitution; a document
///   that declares any entity is refused as soon as the declaration is seen, so entity
///   expansion attacks ("billion laughs") and external entities (`file:///etc/passwd`) never
///   run, and libxml2's own amplification and size protections stay on (no `XML_PARSE_HUGE`);
/// - the file size, the nesting depth and the number of nodes are bounded (`ReaderLimits`);
/// - every libxml2 error becomes a `Diagnostic` with file, line and column, through a
///   per-parse context pointer (no global error handler, so parses on several threads do not
///   interfere);
/// - each element records the line and column where its start tag begins.
final class XMLTree {
    let path: String
    private let document: xmlDocPtr

    private init(path: String, document: xmlDocPtr) {
        self.path = path
        self.document = document
    }

    deinit { xmlFreeDoc(document) }

    /// The root element, if the document has one.
    var root: XMLElement? {
        xmlDocGetRootElement(document).map { XMLElement(node: $0, path: path) }
    }

    /// Parses `bytes` as XML. `path` names the file in diagnostics.
    /// - Parameter keepsText: whether text nodes are kept; model files have none worth reading,
    ///   so dropping them saves memory and time.
    /// - Returns: the tree, or `nil` when there were errors (all of them in `diagnostics`).
    static func parse(
        _ bytes: [UInt8],
        path: String,
        limits: ReaderLimits,
        keepsText: Bool,
        diagnostics: inout [Diagnostic]
    ) -> XMLTree? {
        _ = libXMLInitialization
        let fileLocation = SourceLocation(file: path)
        if bytes.isEmpty {
            diagnostics.append(.error("the file is empty; expected XML", at: fileLocation))
            return nil
        }
        if bytes.count > limits.maxFileSize {
            diagnostics.append(.error(
                "the file is \(bytes.count) bytes, more than the limit of \(limits.maxFileSize) bytes",
                at: fileLocation))
            return nil
        }
        guard bytes.count <= Int(Int32.max) else { return nil }

        guard let context = xmlNewParserCtxt() else {
            diagnostics.append(.error("libxml2 could not create a parser", at: fileLocation))
            return nil
        }
        defer { xmlFreeParserCtxt(context) }
        let state = ParseState(path: path, limits: limits)
        state.install(on: context, keepsText: keepsText)
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOBLANKS.rawValue)
        let parsed: xmlDocPtr? = withExtendedLifetime(state) {
            bytes.withUnsafeBufferPointer { buffer in
                buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    xmlCtxtReadMemory(context, $0, Int32(buffer.count), nil, nil, options)
                }
            }
        }
        context.pointee._private = nil
        diagnostics += state.diagnostics
        guard let document = parsed, !state.diagnostics.hasErrors else {
            if let parsed { xmlFreeDoc(parsed) }
            if !state.diagnostics.hasErrors {
                diagnostics.append(.error("the file is not well-formed XML", at: fileLocation))
            }
            return nil
        }
        return XMLTree(path: path, document: document)
    }
}

/// One element of an `XMLTree`. Valid only while its tree is alive.
struct XMLElement {
    fileprivate let node: xmlNodePtr
    let path: String

    var name: String { String(cString: node.pointee.name) }

    /// Where the element's start tag begins.
    var location: SourceLocation {
        if let packed = node.pointee._private {
            let bits = UInt(bitPattern: packed)
            return SourceLocation(
                file: path,
                line: Int(bits >> StartTagPosition.columnBits),
                column: Int(bits & StartTagPosition.columnMask))
        }
        return SourceLocation(file: path, line: Int(xmlGetLineNo(node)))
    }

    /// The child elements, in document order.
    var children: [XMLElement] {
        var result: [XMLElement] = []
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE {
                result.append(XMLElement(node: current, path: path))
            }
            child = current.pointee.next
        }
        return result
    }

    /// The attributes, in document order, with entity and character references resolved.
    var attributes: [(name: String, value: String)] {
        var result: [(name: String, value: String)] = []
        var attribute = node.pointee.properties
        while let current = attribute {
            result.append((String(cString: current.pointee.name), Self.text(of: current.pointee.children)))
            attribute = current.pointee.next
        }
        return result
    }

    /// The concatenated text of the element's text children (used for plist values).
    var text: String { Self.text(of: node.pointee.children) }

    private static func text(of firstChild: xmlNodePtr?) -> String {
        var pieces = ""
        var child = firstChild
        while let current = child {
            if current.pointee.type == XML_TEXT_NODE || current.pointee.type == XML_CDATA_SECTION_NODE,
               let content = current.pointee.content {
                if current.pointee.next == nil && pieces.isEmpty { return String(cString: content) }
                pieces += String(cString: content)
            }
            child = current.pointee.next
        }
        return pieces
    }
}

/// The line and column of an element's start tag, packed into the node's `_private` pointer
/// (libxml2 leaves that field to the application) so the position costs no allocation.
private enum StartTagPosition {
    static let columnBits: UInt = 20
    static let columnMask: UInt = (1 << columnBits) - 1

    static func pack(line: Int, column: Int) -> UnsafeMutableRawPointer? {
        let column = column <= Int(columnMask) ? UInt(column) : 0
        return UnsafeMutableRawPointer(bitPattern: UInt(max(line, 1)) << columnBits | column)
    }
}

/// What one parse needs in its libxml2 callbacks; reached through the parser context's
/// `_private` pointer, never through global state.
private final class ParseState {
    let path: String
    let limits: ReaderLimits
    var diagnostics: [Diagnostic] = []
    var nodeCount = 0
    var parserErrorCount = 0
    var defaultStartElement: startElementNsSAX2Func?

    /// libxml2 may report many errors for one mistake; beyond this they add nothing.
    static let maxParserErrors = 20

    init(path: String, limits: ReaderLimits) {
        self.path = path
        self.limits = limits
    }

    func install(on context: xmlParserCtxtPtr, keepsText: Bool) {
        context.pointee._private = Unmanaged.passUnretained(self).toOpaque()
        guard let sax = context.pointee.sax else { return }
        // Errors come to us with the parser context as user data (libxml2 passes
        // `ctxt->userData`, which is the context itself for the tree builder).
        sax.pointee.serror = { userData, error in
            guard let error, let state = ParseState.from(parserContext: userData) else { return }
            state.report(error.pointee)
        }
        sax.pointee.error = nil
        sax.pointee.warning = nil
        // Entity declarations are what expansion and external-entity attacks need; model
        // files never have them, so the first one stops the parse.
        sax.pointee.entityDecl = { context, name, _, _, _, _ in
            ParseState.refuseEntityDeclaration(context: context, name: name)
        }
        sax.pointee.unparsedEntityDecl = { context, name, _, _, _ in
            ParseState.refuseEntityDeclaration(context: context, name: name)
        }
        sax.pointee.externalSubset = nil
        sax.pointee.resolveEntity = nil
        sax.pointee.comment = nil
        sax.pointee.processingInstruction = nil
        if !keepsText {
            sax.pointee.characters = nil
            sax.pointee.ignorableWhitespace = nil
            sax.pointee.cdataBlock = nil
        }
        defaultStartElement = sax.pointee.startElementNs
        sax.pointee.startElementNs = { context, localName, prefix, uri, namespaceCount, namespaces,
            attributeCount, defaultedCount, attributes in
            guard let state = ParseState.from(parserContext: context) else { return }
            state.startElement(
                context: context, localName: localName, prefix: prefix, uri: uri,
                namespaceCount: namespaceCount, namespaces: namespaces,
                attributeCount: attributeCount, defaultedCount: defaultedCount, attributes: attributes)
        }
    }

    static func from(parserContext: UnsafeMutableRawPointer?) -> ParseState? {
        guard let context = parserContext?.assumingMemoryBound(to: xmlParserCtxt.self),
              let state = context.pointee._private else { return nil }
        return Unmanaged<ParseState>.fromOpaque(state).takeUnretainedValue()
    }

    private func report(_ error: xmlError) {
        let severity: Diagnostic.Severity = error.level == XML_ERR_WARNING ? .warning : .error
        if severity == .error {
            parserErrorCount += 1
            if parserErrorCount > Self.maxParserErrors { return }
        }
        var message = error.message.map { String(cString: $0) } ?? "XML error \(error.code)"
        while message.last?.isWhitespace == true { message.removeLast() }
        diagnostics.append(Diagnostic(
            severity, message,
            at: SourceLocation(file: path, line: Int(max(error.line, 0)), column: Int(max(error.int2, 0)))))
    }

    private static func refuseEntityDeclaration(
        context: UnsafeMutableRawPointer?, name: UnsafePointer<xmlChar>?
    ) {
        guard let state = from(parserContext: context),
              let parser = context?.assumingMemoryBound(to: xmlParserCtxt.self) else { return }
        let entityName = name.map { String(cString: $0) } ?? ""
        state.stop(
            parser,
            "XML entity declarations are not allowed in model files (entity '\(entityName)')")
    }

    private func stop(_ context: xmlParserCtxtPtr, _ message: String) {
        let line = context.pointee.input.map { Int($0.pointee.line) } ?? 0
        let column = context.pointee.input.map { Int($0.pointee.col) } ?? 0
        diagnostics.append(.error(message, at: SourceLocation(file: path, line: line, column: column)))
        xmlStopParser(context)
    }

    private func startElement(
        context rawContext: UnsafeMutableRawPointer?,
        localName: UnsafePointer<xmlChar>?,
        prefix: UnsafePointer<xmlChar>?,
        uri: UnsafePointer<xmlChar>?,
        namespaceCount: Int32,
        namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?,
        attributeCount: Int32,
        defaultedCount: Int32,
        attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        guard let context = rawContext?.assumingMemoryBound(to: xmlParserCtxt.self) else { return }
        nodeCount += 1 + Int(attributeCount)
        if nodeCount > limits.maxNodes {
            stop(context, "the document has more than \(limits.maxNodes) elements and attributes")
            return
        }
        if Int(context.pointee.nameNr) > limits.maxDepth {
            stop(context, "elements are nested more than \(limits.maxDepth) levels deep")
            return
        }
        let (line, column) = startTagPosition(context)
        let parent = context.pointee.node
        defaultStartElement?(
            rawContext, localName, prefix, uri, namespaceCount, namespaces,
            attributeCount, defaultedCount, attributes)
        if let created = context.pointee.node, created != parent {
            created.pointee._private = StartTagPosition.pack(line: line, column: column)
        }
    }

    /// libxml2 calls `startElementNs` with the input positioned at the end of the start tag.
    /// Attribute values cannot hold a raw `<`, so the nearest `<` before that is where the tag
    /// begins; the newlines in between correct the line. Columns count characters.
    private func startTagPosition(_ context: xmlParserCtxtPtr) -> (line: Int, column: Int) {
        guard let input = context.pointee.input, let base = input.pointee.base,
              let end = input.pointee.cur else { return (0, 0) }
        var line = Int(input.pointee.line)
        var cursor = end
        while cursor > base, cursor.pointee != UInt8(ascii: "<") {
            cursor -= 1
            if cursor.pointee == UInt8(ascii: "\n") { line -= 1 }
        }
        guard cursor.pointee == UInt8(ascii: "<") else { return (Int(input.pointee.line), 0) }
        // Count characters back to the start of the line; UTF-8 continuation bytes
        // (0b10xxxxxx) do not start a character.
        var column = 1
        var scan = cursor
        while scan > base, (scan - 1).pointee != UInt8(ascii: "\n") {
            scan -= 1
            if scan.pointee & 0xC0 != 0x80 { column += 1 }
        }
        return (line, column)
    }
}
