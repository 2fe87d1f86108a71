/// The contract between generated code and this runtime: the SPI generated code calls and the
/// shapes it relies on, at one version. Every generated file names the version it was generated
/// for (`private typealias _GeneratedForManagedObjectsContract = ManagedObjects.GeneratedCodeContract.Version1`), so a file
/// generated for another runtime fails to compile at that line instead of misbehaving at run time.
///
/// When the contract changes incompatibly, add the next version and mark the one before
/// `@available(*, unavailable, message:)` with the instruction to regenerate: files from an
/// older generator then fail with that message; files from a newer generator name a version this
/// runtime does not have ("type 'GeneratedCodeContract' has no member 'Version2'").
@_spi(Generated) public enum GeneratedCodeContract {
    /// The version this runtime implements.
    public enum Version1 {}
}
