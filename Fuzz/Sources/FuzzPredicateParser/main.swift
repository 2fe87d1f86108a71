import DataModel

/// Any text as a format string: refused with an error, or parsed to a tree whose printed form
/// parses back to the same tree and prints the same again.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPredicateParser(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    guard let tree = try? PredicateSyntax(parsing: text) else { return 0 }
    let printed = tree.format
    guard let reparsed = try? PredicateSyntax(parsing: printed), reparsed == tree, reparsed.format == printed else {
        fatalError("round trip failed: \(text.debugDescription) printed as \(printed.debugDescription)")
    }
    return 0
}
