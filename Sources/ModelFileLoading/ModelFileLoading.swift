import DataModelReader
import Foundation
@_exported import ManagedObjects

// Reading model files at run time, for code that ships `.xcdatamodeld` files the way Core Data
// apps ship compiled models. Generated code does not need it: it carries its model as Swift
// values, so an app on the runtime alone needs neither this module nor libxml2.

extension ManagedObjectModel {
    /// Reads a model file at run time: a `.xcdatamodeld` bundle (its current version, or
    /// `versionName`), a `.xcdatamodel` folder or a `contents` file. Throws `DiagnosticError`
    /// with every problem (`path:line:col: error: …`) when the model cannot be read or is not
    /// valid, or when a class in `classes` was generated for another layout of its entity.
    public convenience init(
        contentsOf url: URL, versionName: String? = nil, classes: [String: ManagedObject.Type] = [:]
    ) throws(DiagnosticError) {
        let bundle = try ModelLoader().load(at: url.path, versionName: versionName).requireBundle()
        self.init(bundle.current.model, classes: classes)
        if !classBindingErrors.isEmpty {
            throw DiagnosticError(classBindingErrors.map { .error($0, at: SourceLocation(file: bundle.current.path)) })
        }
    }
}

extension ManagedObjectModelVersions {
    /// Reads every version of the bundle at `url` (a `.xcdatamodeld`). Throws `DiagnosticError`
    /// with every problem when a version cannot be read or is not valid.
    public init(contentsOf url: URL, classes: [String: ManagedObject.Type] = [:]) throws(DiagnosticError) {
        let bundle = try ModelLoader().load(at: url.path, versions: .all).requireBundle()
        self.init(
            versions: bundle.versions.map { Version(name: $0.name, model: ManagedObjectModel($0.model, classes: classes)) },
            currentVersionName: bundle.currentVersionName)
    }
}

extension MappingModel {
    /// Reads a mapping model Xcode wrote (a `.xcmappingmodel` folder or its `xcmapping.xml`) for
    /// the versions it maps between, which `versions` must hold: those with the entity version
    /// hashes of the two models the file keeps (as Core Data matches them), else those of the
    /// names it writes. Core Data's `NSMappingModel(contentsOf:)`, with the versions given
    /// instead of found in a bundle.
    ///
    /// Throws 134110 naming the file (and the entity mapping and property concerned) when the
    /// file cannot be read, names versions, entities or properties the versions lack, or holds a
    /// value expression this runtime does not evaluate.
    public init(contentsOf url: URL, versions: ManagedObjectModelVersions) throws(ManagedObjectError) {
        let document: MappingDocument
        do {
            document = try MappingModelReader().read(at: url.path)
        } catch {
            throw ManagedObjectError(.migration, "cannot read mapping model \(error)", underlying: error)
        }
        try self.init(document, versions: versions, file: url.path)
    }
}
