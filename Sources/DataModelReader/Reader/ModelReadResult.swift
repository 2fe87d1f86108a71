#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What reading (and, through `ModelLoader`, validating) a model path produced: the model
/// bundle, if it could be read, and every diagnostic, errors and warnings, in file order.
public struct ModelReadResult: Sendable {
    /// `nil` when the current version could not be read at all.
    public var bundle: ModelBundle?
    public var diagnostics: [Diagnostic]

    public init(bundle: ModelBundle?, diagnostics: [Diagnostic]) {
        self.bundle = bundle
        self.diagnostics = diagnostics
    }

    public var hasErrors: Bool { bundle == nil || diagnostics.hasErrors }

    /// The bundle, or a `DiagnosticError` carrying all diagnostics when there were errors.
    public func requireBundle() throws(DiagnosticError) -> ModelBundle {
        guard let bundle, !diagnostics.hasErrors else { throw DiagnosticError(diagnostics) }
        return bundle
    }
}
