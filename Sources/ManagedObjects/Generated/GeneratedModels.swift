import Foundation

/// The models generated code registers by name as the program loads, so that
/// `PersistentContainer(name: "Todos")` finds the model generated from `Todos.xcdatamodeld` as
/// Core Data finds `Todos.momd` in the app's bundle: no model file, no libxml2.
///
/// Generated code registers from a load-time initializer, which Swift 6.3 compilers write
/// (`@section(".init_array")`) on Linux; elsewhere, or with an older compiler, nothing is
/// registered and a container needs its model given (`init(name:managedObjectModel:)`).
public enum GeneratedModels {
    /// How to build one generated model and, for a bundle of several versions, all of them.
    private struct Registration: Sendable {
        var model: @Sendable () -> ManagedObjectModel
        var versions: (@Sendable () -> ManagedObjectModelVersions)?
    }

    private static let registered = LockedValue<[String: [Registration]]>([:])

    /// Called by generated code as the program loads: only record how to build the model.
    @_spi(Generated)
    public static func register(_ name: String, _ model: @escaping @Sendable () -> ManagedObjectModel) {
        registered.withLock { $0[name, default: []].append(Registration(model: model, versions: nil)) }
    }

    /// Called by generated code for a bundle of several versions (`<Model>.versions`): a store
    /// written with an older one migrates as a container on the model adds it, as Core Data
    /// finds every version in the app's `.momd`.
    @_spi(Generated)
    public static func register(
        _ name: String, versions: @escaping @Sendable () -> ManagedObjectModelVersions,
        _ model: @escaping @Sendable () -> ManagedObjectModel
    ) {
        registered.withLock { $0[name, default: []].append(Registration(model: model, versions: versions)) }
    }

    /// The class of an entity whose code the user writes (Manual/None codegen), found at run
    /// time as Core Data finds a `representedClassName`: `Class` or `.Class` in the module of the
    /// generated file (`fileID`, `Module/File.swift`), `Module.Class` as given; `ManagedObject`
    /// when there is none, as Core Data falls back to `NSManagedObject`.
    @_spi(Generated)
    public static func manualClass(named className: String, fileID: String) -> ManagedObject.Type {
        let name = className.hasPrefix(".") ? String(className.dropFirst()) : className
        let module = fileID.prefix { $0 != "/" }
        let qualified = name.contains(".") ? name : "\(module).\(name)"
        return _typeByName(qualified) as? ManagedObject.Type ?? ManagedObject.self
    }

    /// The entity that the generated models bind to `objectClass` itself (not to a superclass),
    /// as Core Data's `entity()` class method finds it among the models it has loaded; `nil`
    /// when no generated model binds the class, or several bind it to different entities.
    public static func entity(for objectClass: ManagedObject.Type) -> EntityDescription? {
        let models = registered.withLock { $0.values.flatMap { $0.map(\.model) } }
        let entities = models.compactMap { model in
            model().entity(for: objectClass).flatMap { $0.managedObjectClass == objectClass ? $0 : nil }
        }
        guard let first = entities.first, entities.allSatisfy({ $0 === first }) else { return nil }
        return first
    }

    /// Every generated model (each bundle's current version), ordered by name.
    public static func all() -> [ManagedObjectModel] {
        registrations().map { $0.model() }
    }

    /// Every version of every generated model, ordered by name then oldest first (a model of one
    /// version gives that one): where Core Data looks for the model a store was written with.
    public static func allVersions() -> [ManagedObjectModel] {
        registrations().flatMap { registration in
            registration.versions.map { $0().versions.map(\.model) } ?? [registration.model()]
        }
    }

    /// The versions of the generated bundle whose current version is `model` (the same object,
    /// else the same entity version hashes); `nil` when no generated model of several versions is.
    public static func versions(of model: ManagedObjectModel) -> ManagedObjectModelVersions? {
        let candidates = registrations().compactMap { $0.versions?() }
        if let same = candidates.first(where: { $0.current === model }) { return same }
        let hashes = model.entityVersionHashesByName
        return candidates.first { $0.current?.entityVersionHashesByName == hashes }
    }

    private static func registrations() -> [Registration] {
        registered.withLock { registered in registered.sorted { $0.key < $1.key }.flatMap(\.value) }
    }

    /// The model generated from `<name>.xcdatamodeld` (or `.xcdatamodel`). When several targets
    /// generate a model of that name, the one whose classes are in `module` (as Core Data looks
    /// first in the bundle of the container's class).
    /// - Throws: `ManagedObjectError` (134070) when no generated model has that name, or
    ///   several do and `module` does not tell one.
    public static func model(named name: String, inModule module: String? = nil) throws(ManagedObjectError) -> ManagedObjectModel {
        try modelAndVersions(named: name, inModule: module).model
    }

    /// ``model(named:inModule:)`` with the versions its bundle carries (`nil` for a model of one
    /// version), which a container on the model migrates an older store through.
    public static func modelAndVersions(
        named name: String, inModule module: String? = nil
    ) throws(ManagedObjectError) -> (model: ManagedObjectModel, versions: ManagedObjectModelVersions?) {
        var models = registered.withLock { $0[name] ?? [] }.map { (model: $0.model(), versions: $0.versions) }
        if models.count > 1, let module {
            models = models.filter { model in
                model.model.entities.contains { String(reflecting: $0.managedObjectClass).hasPrefix("\(module).") }
            }
        }
        guard models.count == 1 else {
            let known = registered.withLock { $0.keys.sorted() }
            throw ManagedObjectError(
                .persistentStoreOperation,
                models.isEmpty
                    ? "no generated model named '\(name)' (generated models: \(known.isEmpty ? "none" : known.joined(separator: ", ")))"
                    : "\(models.count) generated models are named '\(name)'; give the container its model")
        }
        return (models[0].model, models[0].versions?())
    }
}
