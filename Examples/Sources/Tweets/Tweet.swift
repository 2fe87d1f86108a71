import ManagedObjects

/// The lecture picks "Category/Extension" for Tweet: we write the class, ManagedGen writes an
/// extension with its properties. Here the class keeps a count of deleted tweets, the
/// lecture's use of `prepareForDeletion`.
public final class Tweet: ManagedObject {
    nonisolated(unsafe) static var deletedCount = 0

    public override func prepareForDeletion() {
        super.prepareForDeletion()
        Tweet.deletedCount += 1
    }
}
