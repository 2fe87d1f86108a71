import Foundation

extension PersistentStoreCoordinator {
    /// Deletes the store at `url`: for an SQLite store its file, `-wal`, `-shm` and `-journal`
    /// and its external binary data folder (`.<name>_SUPPORT`); for another file store its file.
    /// A store of this coordinator at `url` is removed first. Files that are not there are not an
    /// error. Core Data's `destroyPersistentStore(at:ofType:options:)`.
    public func destroyPersistentStore(at url: URL, type: PersistentStoreType) throws {
        if let store = persistentStores.first(where: { $0.url?.standardizedFileURL == url.standardizedFileURL }) {
            try remove(store)
        }
        guard type != .inMemory else { return }
        for file in Self.files(ofStoreAt: url, type: type) where FileManager.default.fileExists(atPath: file.path) {
            do {
                try FileManager.default.removeItem(at: file)
            } catch {
                throw ManagedObjectError(.persistentStoreOperation, "cannot delete \(file.path) of the store at \(url.path): \(error)", underlying: error)
            }
        }
    }

    /// Makes the store at `destinationURL` a copy of the store at `sourceURL`, which stays: the
    /// destination's files go (as ``destroyPersistentStore(at:type:)``), then the source's are
    /// copied (for SQLite with its `-wal`, `-shm` and external binary data folder). Core Data's
    /// `replacePersistentStore(at:destinationOptions:withPersistentStoreFrom:sourceOptions:ofType:)`.
    /// Throws when there is no store at `sourceURL` or a file cannot be copied.
    public func replacePersistentStore(at destinationURL: URL, withPersistentStoreFrom sourceURL: URL, type: PersistentStoreType) throws {
        guard type != .inMemory else { return }
        guard sourceURL.standardizedFileURL != destinationURL.standardizedFileURL else { return }
        guard FileManager.default.fileExists(atPath: sourceURL.path) else {
            throw ManagedObjectError(.persistentStoreOperation, "cannot replace the store at \(destinationURL.path): there is no store at \(sourceURL.path)")
        }
        try destroyPersistentStore(at: destinationURL, type: type)
        let copies = zip(Self.files(ofStoreAt: sourceURL, type: type), Self.files(ofStoreAt: destinationURL, type: type))
        for (source, destination) in copies where FileManager.default.fileExists(atPath: source.path) {
            do {
                try FileManager.default.copyItem(at: source, to: destination)
            } catch {
                throw ManagedObjectError(
                    .persistentStoreOperation, "cannot copy \(source.path) to \(destination.path) to replace the store: \(error)", underlying: error)
            }
        }
    }

    /// The files and folders a store of `type` at `url` keeps, the main file first.
    private static func files(ofStoreAt url: URL, type: PersistentStoreType) -> [URL] {
        guard type == .sqlite else { return [url] }
        return [url]
            + ["-wal", "-shm", "-journal"].map { URL(fileURLWithPath: url.path + $0) }
            + [ExternalBinaryData.supportDirectory(ofStoreAt: url)]
    }
}
