import DataModel
import Foundation

/// How an atomic store's contents become a file and back: ``BinaryStoreFormat`` and
/// ``XMLStoreFormat``.
protocol AtomicStoreFormat: Sendable {
    func encode(_ contents: AtomicStoreContents) throws -> Data
    /// The contents of a file, or an error naming `path` and what is wrong; `attributeType`
    /// gives the type of an entity's stored attribute (`nil`: no such stored attribute).
    func decode(_ data: Data, path: String, attributeType: (_ entity: String, _ attribute: String) -> AttributeType?) throws -> AtomicStoreContents
    /// The metadata of a file, read without a model (Core Data's `metadataForPersistentStore`);
    /// errors as `decode`'s.
    func metadata(of data: Data, path: String) throws -> [String: Any]
    /// The file with its metadata replaced by `metadata` and everything else as it was.
    func replacingMetadata(_ metadata: [String: Any], in data: Data, path: String) throws -> Data
}
