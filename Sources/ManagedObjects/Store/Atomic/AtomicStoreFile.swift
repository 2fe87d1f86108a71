import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading an atomic store's file whole, and replacing it whole: the new contents go to a
/// temporary file in the same folder, which is flushed to disk and renamed over the store
/// file (`rename(2)` replaces it in one step), so a process killed at any moment leaves
/// either the last complete file or the new one, never a mixture.
enum AtomicStoreFile {
    /// The file's bytes; `nil` when there is no file (or an empty one: nothing was ever saved).
    static func read(_ url: URL) throws -> Data? {
        let path = url.path
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            let data = try Data(contentsOf: url)
            return data.isEmpty ? nil : data
        } catch {
            throw ManagedObjectError(.persistentStoreOpen, "cannot read the store file \(path): \(error.localizedDescription)", underlying: error)
        }
    }

    /// The prefix of the temporary files a save writes beside `url`: what a save killed before
    /// its rename leaves, which opening the store ignores.
    static func temporaryPrefix(for url: URL) -> String {
        ".\(url.lastPathComponent).saving-"
    }

    /// Replaces the file at `url` with `data`. `beforeRename` runs once the temporary file is
    /// complete (tests make it throw, as a process killed there would stop). Throws naming the
    /// file, leaving the previous file as it was and no temporary file behind.
    static func replace(_ url: URL, with data: Data, beforeRename: ((URL) throws -> Void)? = nil) throws {
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(temporaryPrefix(for: url) + UUID().uuidString)
        func failure(_ what: String) -> ManagedObjectError {
            ManagedObjectError(.persistentStoreOperation, "cannot save the store file \(url.path): \(what)")
        }
        var renamed = false
        defer { if !renamed { unlink(temporary.path) } }
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else { throw failure("cannot create \(temporary.path): \(String(cString: strerror(errno)))") }
        var written = 0
        let writeError: Int32? = data.withUnsafeBytes { buffer in
            while written < buffer.count {
                let result = write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                written += result
            }
            return fsync(descriptor) == 0 ? nil : errno
        }
        let closed = close(descriptor) == 0
        if let writeError { throw failure("cannot write \(temporary.path): \(String(cString: strerror(writeError)))") }
        guard closed else { throw failure("cannot close \(temporary.path): \(String(cString: strerror(errno)))") }
        try beforeRename?(temporary)
        guard rename(temporary.path, url.path) == 0 else {
            throw failure("cannot rename \(temporary.path) over it: \(String(cString: strerror(errno)))")
        }
        renamed = true
        // The rename itself reaches the disk with the folder's entry.
        let folder = open(directory.path, O_RDONLY)
        if folder >= 0 {
            _ = fsync(folder)
            _ = close(folder)
        }
    }
}
