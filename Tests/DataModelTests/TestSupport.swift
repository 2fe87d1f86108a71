@testable import DataModel
@testable import DataModelReader

/// Paths the tests read, computed from this file's location so they work from any directory.
enum ReaderTestPaths {
    /// The package root: three levels above `Tests/DataModelTests/TestSupport.swift`.
    static let packageRoot: String = {
        var components = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(3)
        return components.joined(separator: "/")
    }()

    static func fixture(_ relativePath: String) -> String {
        packageRoot + "/Tests/DataModelTests/Fixtures/" + relativePath
    }

    /// The shared corpus of real models, beside the checkout (see its README).
    static let corpus = packageRoot + "/../shared/corpus"
}

/// Reads one `contents` document given as text, the way a file would be read.
func readModel(_ xml: String, path: String = "Test.xcdatamodel/contents") -> (model: Model?, diagnostics: [Diagnostic]) {
    ModelReader().readModel(xml: Array(xml.utf8), path: path)
}

/// Reads and validates one `contents` document given as text.
func checkModel(_ xml: String, path: String = "Test.xcdatamodel/contents") -> [Diagnostic] {
    let (model, diagnostics) = readModel(xml, path: path)
    guard let model else { return diagnostics }
    return (diagnostics + ModelValidator().validate(model)).sortedByLocation()
}

/// A `contents` document around the given entities and other `<model>` children, in Xcode's style.
func modelXML(_ body: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="21513" systemVersion="22D68" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
    \(body)
    </model>
    """
}

extension Array where Element == Diagnostic {
    var errors: [Diagnostic] { filter { $0.severity == .error } }
    var warnings: [Diagnostic] { filter { $0.severity == .warning } }
    var messages: [String] { map(\.message) }
}
