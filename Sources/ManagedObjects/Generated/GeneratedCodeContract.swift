/// The contract between generated code and this runtime: the SPI generated code calls and the
/// shapes it relies on, at one version. Every generated file names the version it was generated
/// for (`private typealias _GeneratedForManagedObjectsContract = ManagedObjects.GeneratedCodeContract.Version4`), so a file
/// generated for another runtime fails to compile at that line instead of misbehaving at run time.
///
/// When the contract changes incompatibly, add the next version and mark the one before
/// `@available(*, unavailable, message:)` with the instruction to regenerate: files from an
/// older generator then fail with that message; files from a newer generator name a version this
/// runtime does not have ("'Version5' is not a member type of enum 'ManagedObjects.GeneratedCodeContract'"). A change that
/// only adds to the contract adds the next version and leaves the one before available: files
/// generated for it still compile.
@_spi(Generated) public enum GeneratedCodeContract {
    @available(*, unavailable, message: "regenerate the file with the managedgen that matches your ManagedObjects")
    public enum Version1 {}
    /// Version 1 plus attributes typed with a `RawRepresentable` type, typed object IDs and
    /// snapshots; its files call the accessors as members of `ManagedObject`, which version 3 removed.
    @available(*, unavailable, message: "regenerate the file with the managedgen that matches your ManagedObjects")
    public enum Version2 {}
    /// Generated code reaches the runtime through one door, `_managedGen` (``GeneratedObjectAccess``
    /// on an object, ``GeneratedClassAccess`` on a class), and names every runtime type
    /// module-qualified; its model literals name `DataModel`'s types as `ManagedObjects.Entity`,
    /// which version 4 removed.
    @available(*, unavailable, message: "regenerate the file with the managedgen that matches your ManagedObjects")
    public enum Version3 {}
    /// The version this runtime implements: version 3 with the model literal's types named
    /// through ``ModelLiteral`` (`ManagedObjects.ModelLiteral.Entity`), as `ManagedObjects` no
    /// longer re-exports `DataModel`.
    public enum Version4 {}
}
