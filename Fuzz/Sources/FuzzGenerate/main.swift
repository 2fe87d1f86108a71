import DataModelReader
import ManagedGenCore

/// Any bytes as a model file: a model the reader and the validator accept generates Swift
/// source (Scripts/fuzz.sh typechecks a sample of it), or errors; never a trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGenerate(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let (model, diagnostics) = ModelReader().readModel(
        xml: Array(UnsafeBufferPointer(start: start, count: count)), path: "Fuzz.xcdatamodel/contents")
    guard let model, !diagnostics.contains(where: { $0.severity == .error }),
          !ModelValidator().validate(model).contains(where: { $0.severity == .error })
    else { return 0 }
    let output = Generator().generate(model, modelFileName: "Fuzz.xcdatamodel")
    if output.files.isEmpty, !output.diagnostics.contains(where: { $0.severity == .error }) {
        fatalError("a valid model generated no file and no error")
    }
    return 0
}
