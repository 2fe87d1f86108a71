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

/// Parses XML with libxml2, locked down for untrusted input, into elements:
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
///
/// The elements are built straight from libxml2's SAX events: libxml2 never builds its own
/// tree, which would cost several allocations per attribute only to be copied and freed.
enum XMLTree {
    /// One element of a parsed document: its name, attributes, child elements and (if asked
    /// for) text, and where its start tag begins.
    struct Element {
        let name: String
        /// In document order, with entity and character references resolved.
        let attributes: [(name: String, value: String)]
        fileprivate(set) var children: [Element] = []
        /// The element's own text (not its children's); kept only when parsing asks for it.
        fileprivate(set) var text = ""
        let location: SourceLocation
    }

    /// Parses `bytes` as XML. `path` names the file in diagnostics.
    /// - Parameter keepsText: whether element text is kept; model files have none worth
    ///   reading, property lists do.
    /// - Returns: the root element, or `nil` when there were errors (all in `diagnostics`).
    static func parse(
        _ bytes: [UInt8],
        path: String,
        limits: ReaderLimits,
        keepsText: Bool,
        diagnostics: inout [Diagnostic]
    ) -> XMLTree.Element? {
        _ = libXMLInitialization
        let fileLocation = SourceLocation(file: path)
        if bytes.isEmpty {
            diagnostics.append(.error("the file is empty; expected XML", at: fileLocation))
            return nil
        }
        if bytes.count > limits.maxFileSize || bytes.count > Int(Int32.max) {
            diagnostics.append(.error(
                "the file is \(bytes.count) bytes, more than the limit of \(limits.maxFileSize) bytes",
                at: fileLocation))
            return nil
        }
        guard let context = xmlNewParserCtxt() else {
            diagnostics.append(.error("libxml2 could not create a parser", at: fileLocation))
            return nil
        }
        defer { xmlFreeParserCtxt(context) }

        let state = ParseState(path: path, limits: limits)
        state.install(on: context, keepsText: keepsText)
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOBLANKS.rawValue)
        let document: xmlDocPtr? = withExtendedLifetime(state) {
            bytes.withUnsafeBufferPointer { buffer in
                buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    xmlCtxtReadMemory(context, $0, Int32(buffer.count), nil, nil, options)
                }
            }
        }
        context.pointee._private = nil
        // The document holds only what libxml2's start-of-document handler made; the
        // elements are ours.
        let wellFormed = document != nil
        if let document { xmlFreeDoc(document) }

        diagnostics += state.diagnostics
        guard wellFormed, !state.diagnostics.hasErrors, let root = state.root else {
            if !state.diagnostics.hasErrors {
                diagnostics.append(.error("the file is not well-formed XML", at: fileLocation))
            }
            return nil
        }
        return root
    }
}

/// What one parse needs in its libxml2 callbacks; reached through the parser context's
/// `_private` pointer, never through global state.
private final class ParseState {
    let path: String
    let limits: ReaderLimits
    var diagnostics: [Diagnostic] = []
    /// The elements whose start tag has been read and whose end tag has not, outermost first.
    var open: [XMLTree.Element] = []
    var root: XMLTree.Element?
    var nodeCount = 0
    var parserErrorCount = 0

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
        // `ctxt->userData`, which is the context itself).
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
        sax.pointee.reference = nil
        sax.pointee.comment = nil
        sax.pointee.processingInstruction = nil
        sax.pointee.startElementNs = { context, localName, prefix, _, _, _, attributeCount, _, attributes in
            ParseState.from(parserContext: context)?.startElement(
                context: context, localName: localName, prefix: prefix,
                attributeCount: Int(attributeCount), attributes: attributes)
        }
        sax.pointee.endElementNs = { context, _, _, _ in
            ParseState.from(parserContext: context)?.endElement()
        }
        if keepsText {
            sax.pointee.characters = { context, characters, length in
                guard let characters, length > 0, let state = ParseState.from(parserContext: context),
                      !state.open.isEmpty else { return }
                state.open[state.open.count - 1].text += String(
                    decoding: UnsafeBufferPointer(start: characters, count: Int(length)), as: UTF8.self)
            }
            sax.pointee.cdataBlock = sax.pointee.characters
        } else {
            sax.pointee.characters = nil
            sax.pointee.cdataBlock = nil
        }
        sax.pointee.ignorableWhitespace = nil
    }

    static func from(parserContext: UnsafeMutableRawPointer?) -> ParseState? {
        guard let context = parserContext?.assumingMemoryBound(to: xmlParserCtxt.self),
              let state = context.pointee._private else { return nil }
        return Unmanaged<ParseState>.fromOpaque(state).takeUnretainedValue()
    }

    // MARK: - Elements

    private func startElement(
        context rawContext: UnsafeMutableRawPointer?,
        localName: UnsafePointer<xmlChar>?,
        prefix: UnsafePointer<xmlChar>?,
        attributeCount: Int,
        attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        guard let context = rawContext?.assumingMemoryBound(to: xmlParserCtxt.self),
              let localName else { return }
        nodeCount += 1 + attributeCount
        if nodeCount > limits.maxNodes {
            stop(context, "the document has more than \(limits.maxNodes) elements and attributes")
            return
        }
        if open.count >= limits.maxDepth {
            stop(context, "elements are nested more than \(limits.maxDepth) levels deep")
            return
        }
        var name = String(cString: localName)
        if let prefix { name = String(cString: prefix) + ":" + name }

        // libxml2 passes five pointers per attribute: local name, prefix, URI, value start
        // and value end. Values are not terminated.
        var pairs: [(name: String, value: String)] = []
        if let attributes, attributeCount > 0 {
            pairs.reserveCapacity(attributeCount)
            for index in 0..<attributeCount {
                let base = attributes + index * 5
                guard let attributeName = base[0], let start = base[3], let end = base[4] else { continue }
                var qualifiedName = String(cString: attributeName)
                if let attributePrefix = base[1] { qualifiedName = String(cString: attributePrefix) + ":" + qualifiedName }
                pairs.append((qualifiedName, Self.attributeValue(UnsafeBufferPointer(start: start, count: end - start))))
            }
        }
        let (line, column) = startTagPosition(context)
        open.append(XMLTree.Element(
            name: name, attributes: pairs,
            location: SourceLocation(file: path, line: line, column: column)))
    }

    private func endElement() {
        guard let element = open.popLast() else { return }
        if open.isEmpty {
            root = element
        } else {
            open[open.count - 1].children.append(element)
        }
    }

    /// Without entity substitution, libxml2 hands `&amp;` (and `&#38;`) in attribute values
    /// over as the text `&#38;`, so that an entity reference could be told from an ampersand;
    /// every other reference arrives resolved. Documents that declare entities are refused, so
    /// `&#38;` is the only reference left to resolve.
    private static func attributeValue(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        guard bytes.contains(UInt8(ascii: "&")) else { return text }
        return text.replacing("&#38;", with: "&")
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

    // MARK: - Errors

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
}
