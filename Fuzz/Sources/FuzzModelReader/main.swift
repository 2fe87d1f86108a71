import DataModelReader

/// Any bytes as a model file: the reader gives a model or errors, never traps, and every
/// diagnostic with a place names the file it read.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzModelReader(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let path = "Fuzz.xcdatamodel/contents"
    let (model, diagnostics) = ModelReader().readModel(xml: Array(UnsafeBufferPointer(start: start, count: count)), path: path)
    for diagnostic in diagnostics where diagnostic.location.map({ $0.file != path }) ?? false {
        fatalError("a diagnostic does not name the file it is about: \(diagnostic)")
    }
    if let model {
        _ = ModelValidator().validate(model)
    } else if !diagnostics.contains(where: { $0.severity == .error }) {
        fatalError("no model and no error")
    }
    return 0
}
