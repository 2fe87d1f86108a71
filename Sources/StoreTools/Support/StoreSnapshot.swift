import Foundation
import ManagedObjects

/// A private copy of a store file (with its `-wal` and `-shm`) in a temporary folder, for the
/// commands that only read a store (inspect, export, a dry run).
///
/// SQLite writes beside a store even to read it: a read-only connection updates the `-shm`
/// index, and on a store in WAL mode without `-wal`/`-shm` it creates them. The only way to
/// read a store without changing a byte of it (or adding a file beside it) on every platform is
/// to read a copy. The copy is taken again when the store changes while it is copied (another
/// process saving), and refused after a few tries, so it is never torn.
package final class StoreSnapshot {
    /// The store as the user named it.
    package let original: URL
    /// The copy: open this one.
    package let url: URL
    private let directory: URL

    /// The files of a store that hold its data. The `-shm` is an index SQLite rebuilds from the
    /// `-wal`, and readers of the store write to it: neither copied nor watched.
    private static let dataSuffixes = ["", "-wal"]

    /// Copies the store at `path`. Throws naming the file when there is none, it cannot be
    /// read, or it is not an SQLite file.
    package init(of path: String) throws {
        let original = URL(fileURLWithPath: path).standardizedFileURL
        self.original = original
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: original.path, isDirectory: &isDirectory) else {
            throw StoreToolError(file: path, "no such file")
        }
        guard !isDirectory.boolValue else { throw StoreToolError(file: path, "is a folder, not a store file") }
        guard let handle = FileHandle(forReadingAtPath: original.path) else {
            throw StoreToolError(file: path, "cannot be read (permissions?)")
        }
        let header = (try? handle.read(upToCount: 16)) ?? nil
        try? handle.close()
        guard header == Data("SQLite format 3\0".utf8) else {
            throw StoreToolError(file: path, "is not an SQLite file (Core Data's SQLite stores start with \"SQLite format 3\")")
        }
        directory = manager.temporaryDirectory.appendingPathComponent("managedgen-\(UUID().uuidString)")
        try manager.createDirectory(at: directory, withIntermediateDirectories: true)
        url = directory.appendingPathComponent(original.lastPathComponent)
        do {
            try Self.copy(original, to: url)
            // External binary data stays where it is: the copy reads it through a link to its
            // folder (reading never writes there).
            let support = ExternalBinaryData.supportDirectory(ofStoreAt: original)
            if manager.fileExists(atPath: support.path) {
                try manager.createSymbolicLink(at: ExternalBinaryData.supportDirectory(ofStoreAt: url), withDestinationURL: support)
            }
        } catch {
            try? manager.removeItem(at: directory)
            throw error
        }
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// The path of a file of the copy, as the user knows it: for messages.
    package func originalPath(in message: String) -> String {
        message.replacingOccurrences(of: url.path, with: original.path)
    }

    /// Copies the store's files, again while one of them changed during the copy.
    private static func copy(_ store: URL, to copy: URL) throws {
        let manager = FileManager.default
        for _ in 0..<5 {
            let before = state(of: store)
            for suffix in dataSuffixes {
                let from = store.path + suffix, to = copy.path + suffix
                try? manager.removeItem(atPath: to)
                guard manager.fileExists(atPath: from) else { continue }
                do {
                    try manager.copyItem(atPath: from, toPath: to)
                    // The copy is the tool's own: SQLite may write to it (a store's files are
                    // often read-only, as the shared test stores are).
                    try manager.setAttributes([.posixPermissions: 0o600], ofItemAtPath: to)
                } catch {
                    throw StoreToolError(file: from, "cannot be copied to read it: \(error.localizedDescription)")
                }
            }
            if state(of: store) == before { return }
        }
        throw StoreToolError(file: store.path, "changed each time it was copied to be read: another process is writing to it")
    }

    /// Size and modification date of each of the store's files, to tell a change.
    private static func state(of store: URL) -> [String] {
        dataSuffixes.map { suffix in
            let attributes = try? FileManager.default.attributesOfItem(atPath: store.path + suffix)
            return "\(attributes?[.size] ?? "-") \((attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)"
        }
    }
}
