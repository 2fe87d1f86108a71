/// The contract between generated code and this runtime: the SPI generated code calls and the
/// shapes it relies on, at one version. Every generated file names the version it was generated
/// for (`private typealias _GeneratedForManagedObjectsContract = ManagedObjects.GeneratedCodeContract.Version2`), so a file
/// generated for another runtime fails to compile at that line instead of misbehaving at run time.
///
/// When the contract changes incompatibly, add the next version and mark the one before
/// `@available(*, unavailable, message:)` with the instruction to regenerate: files from an
/// older generator then fail with that message; files from a newer generator name a version this
/// runtime does not have ("'Version3' is not a member type of enum 'ManagedObjects.GeneratedCodeContract'"). A change that
/// only adds to the contract adds the next version and leaves the one before available: files
/// generated for it still compile.
@_spi(Generated) public enum GeneratedCodeContract {
    /// Version 1, still implemented: what version 2 added is not used by files generated for it.
    public enum Version1 {}
    /// The version this runtime implements: version 1 plus attributes typed with a
    /// `RawRepresentable` type (`rawValueAttribute(at:)`), typed object IDs (`ObjectID`) and
    /// snapshots (`SnapshotValues`, `readSnapshots`, `setToOneObjectID`, `setToManyObjectIDs`).
    public enum Version2 {}
}
