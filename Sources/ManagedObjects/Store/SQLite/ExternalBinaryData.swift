import Foundation

/// Binary attributes that allow external storage (`allowsExternalBinaryDataStorage`), kept as
/// Core Data's SQLite store keeps them: each cell is one marker byte and then the payload.
///
/// - `0x01` and the bytes themselves, for a value of at most ``inlineLimit`` bytes;
/// - `0x02`, the name of a file in ``directory`` (an upper-case UUID, 36 ASCII characters) and
///   a NUL byte, for a larger value; the file holds the bytes;
/// - `0x03`, `###`, the file's size (8 bytes, little-endian), its UUID (16 bytes) and the UUID's
///   string, for a file-backed future (Core Data's private `_NSDataFileBackedFuture`): the bytes
///   are the file named by that UUID in the store's `_FBF` folder, beside `_EXTERNAL_DATA`. Read
///   only: Core Data writes these for its own futures, which no public API makes.
/// - a zero-length cell reads as empty data (Core Data's reader takes it as it is); NULL is nil.
///
/// No store in `shared/stores` has such a cell (its README says so): the format is inferred from
/// Core Data's own code as decompiled in public repositories (`_PFExternalReferenceData`'s
/// `initForExternalLocation:…` writes `0x02`, the file name, a NUL, or `0x01` and the bytes;
/// `NSSQLiteConnection` reads a cell by its first byte and the name up to the NUL;
/// `NSSQLSavePlan` stores a value externally when it is longer than `0x20000` bytes) and from
/// articles that looked at the files (the folder `.<store name>_SUPPORT/_EXTERNAL_DATA` beside
/// the store). `Docs/RuntimeDifferences.md` says what follows from that.
package struct ExternalBinaryData: Sendable {
    /// The largest value kept in the cell itself (Core Data's `NSSQLSavePlan`: `0x20000`, 128 KiB).
    package static let inlineLimit = 0x20000
    package static let inlineMarker: UInt8 = 0x01
    package static let externalMarker: UInt8 = 0x02
    /// `_NSDataFileBackedFuture`'s store metadata starts with these four bytes (`03 23 23 23`).
    package static let fileBackedFuturePrefix = Data([0x03, 0x23, 0x23, 0x23])

    /// Where the files are: `.<store name>_SUPPORT/_EXTERNAL_DATA` beside the store file.
    package let directory: URL

    package init(directory: URL) {
        self.directory = directory
    }

    /// Where Core Data keeps the files of file-backed futures: `_FBF` in the same support folder
    /// (`NSSQLCore fileBackedFuturesDirectory`).
    package var fileBackedFuturesDirectory: URL {
        directory.deletingLastPathComponent().appendingPathComponent("_FBF")
    }

    /// The data of the store at `storeURL`.
    package init(storeAt storeURL: URL) {
        self.init(directory: Self.supportDirectory(ofStoreAt: storeURL).appendingPathComponent("_EXTERNAL_DATA"))
    }

    /// `.<store file name without its extension>_SUPPORT` beside the store file, as Core Data
    /// names it (`Moody.moody` → `.Moody_SUPPORT`).
    package static func supportDirectory(ofStoreAt storeURL: URL) -> URL {
        storeURL.deletingLastPathComponent()
            .appendingPathComponent(".\(storeURL.deletingPathExtension().lastPathComponent)_SUPPORT")
    }

    /// The name of the file an external cell refers to; `nil` for any other cell.
    package static func fileName(ofCell cell: Data) -> String? {
        guard cell.first == externalMarker else { return nil }
        let name = cell.dropFirst().prefix { $0 != 0 }
        return String(bytes: name, encoding: .ascii)
    }

    /// The value a cell holds: the bytes after an inline marker, or the contents of the file an
    /// external cell names. Throws an error naming the attribute, the object and the file for a
    /// file that is missing or unreadable, a name that is not a plain file name, or a cell that
    /// has neither marker (never other bytes than the ones saved).
    package func value(ofCell cell: Data, attribute: String, objectID: ManagedObjectID?) throws -> Data {
        guard let marker = cell.first else { return cell }
        switch marker {
        case Self.inlineMarker:
            return Data(cell.dropFirst())
        case Self.externalMarker:
            guard let name = Self.fileName(ofCell: cell), Self.isPlainFileName(name) else {
                throw error("the cell names no valid external file (\(cell.count) bytes)", attribute: attribute, objectID: objectID)
            }
            return try contents(of: directory.appendingPathComponent(name), attribute: attribute, objectID: objectID)
        case Self.fileBackedFuturePrefix[0]:
            let (name, size) = try fileBackedFuture(ofCell: cell, attribute: attribute, objectID: objectID)
            let file = fileBackedFuturesDirectory.appendingPathComponent(name)
            // The size the cell recorded: another is a file not (or no longer) the one saved;
            // told before reading it, so a huge file in its place is not read.
            func checkSize(_ count: Int) throws {
                guard UInt64(count) == size else {
                    throw error("its file-backed future \(file.path) holds \(count) bytes where the cell says \(size)",
                                attribute: attribute, objectID: objectID)
                }
            }
            if let count = Self.fileSize(file) { try checkSize(count) }
            let data = try contents(of: file, attribute: attribute, objectID: objectID)
            try checkSize(data.count)
            return data
        default:
            throw error(String(format: "the cell starts with 0x%02X, which is none of Core Data's inline (0x01), external (0x02) or file-backed future (0x03) markers", marker),
                        attribute: attribute, objectID: objectID)
        }
    }

    /// The file name (the upper-case UUID) and the size a file-backed future's cell records, as
    /// `_NSDataFileBackedFuture initWithStoreMetadata:directory:` reads them: the name comes from
    /// the 16 UUID bytes, not from the string after them.
    private func fileBackedFuture(ofCell cell: Data, attribute: String, objectID: ManagedObjectID?) throws -> (name: String, size: UInt64) {
        let bytes = [UInt8](cell)
        guard bytes.count >= 28, bytes.starts(with: Self.fileBackedFuturePrefix) else {
            throw error("the cell (\(bytes.count) bytes) is no file-backed future: it needs 03 23 23 23, a size and a UUID",
                        attribute: attribute, objectID: objectID)
        }
        let size = bytes[4..<12].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let uuid = UUID(uuid: (bytes[12], bytes[13], bytes[14], bytes[15], bytes[16], bytes[17], bytes[18], bytes[19],
                               bytes[20], bytes[21], bytes[22], bytes[23], bytes[24], bytes[25], bytes[26], bytes[27]))
        return (uuid.uuidString, size)
    }

    /// The bytes of a regular file (following a link): reading a pipe or a device a damaged or
    /// hostile folder holds would not end.
    private func contents(of file: URL, attribute: String, objectID: ManagedObjectID?) throws -> Data {
        var status = stat()
        if stat(file.path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
            throw error("its external file \(file.path) is not a regular file", attribute: attribute, objectID: objectID)
        }
        do {
            return try Data(contentsOf: file)
        } catch {
            throw self.error("cannot read its external file \(file.path): \(Self.reason(error))", attribute: attribute, objectID: objectID)
        }
    }

    /// The cell that keeps `data`: inline up to ``inlineLimit`` bytes, else a new file, whose
    /// name is appended to `written` once it is complete on disk. `previousCell` (the row's
    /// cell before this save) is kept when it holds the same bytes, so an unchanged value is not
    /// written again.
    package func cell(for data: Data, previousCell: Data?, attribute: String, objectID: ManagedObjectID?, written: inout [String]) throws -> Data {
        // A file-backed future Core Data wrote stays one while its bytes are unchanged.
        if let previousCell, previousCell.first == Self.fileBackedFuturePrefix[0],
           (try? value(ofCell: previousCell, attribute: attribute, objectID: objectID)) == data {
            return previousCell
        }
        guard data.count > Self.inlineLimit else {
            var cell = Data(capacity: data.count + 1)
            cell.append(Self.inlineMarker)
            cell.append(data)
            return cell
        }
        if let previousCell, let name = Self.fileName(ofCell: previousCell), Self.isPlainFileName(name),
           Self.fileSize(directory.appendingPathComponent(name)) == data.count,
           (try? Data(contentsOf: directory.appendingPathComponent(name))) == data {
            return previousCell
        }
        let name = UUID().uuidString
        try write(data, named: name, attribute: attribute, objectID: objectID)
        written.append(name)
        var cell = Data([Self.externalMarker])
        cell.append(contentsOf: Array(name.utf8))
        cell.append(0)
        return cell
    }

    /// Removes the files named (after a save that no longer refers to them commits, or after
    /// one that wrote them failed). A file already gone is no error.
    package func removeFiles(_ names: some Sequence<String>) {
        for name in names where Self.isPlainFileName(name) {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
    }

    /// Writes a new file under a temporary name, to disk (fsync), then renames it: a file by its
    /// final name is always complete, also after a crash.
    private func write(_ data: Data, named name: String, attribute: String, objectID: ManagedObjectID?) throws {
        let manager = FileManager.default
        let file = directory.appendingPathComponent(name)
        let partial = directory.appendingPathComponent(".\(name).partial")
        do {
            try manager.createDirectory(at: directory, withIntermediateDirectories: true)
            guard manager.createFile(atPath: partial.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown)
            }
            let handle = try FileHandle(forWritingTo: partial)
            defer { try? handle.close() }
            try handle.write(contentsOf: data)
            try handle.synchronize()
            try manager.moveItem(at: partial, to: file)
        } catch {
            try? manager.removeItem(at: partial)
            throw self.error("cannot write its external file \(file.path): \(Self.reason(error))", attribute: attribute, objectID: objectID)
        }
    }

    /// A name a store may give a file: not a path, not `.` or `..` (a damaged or hostile store
    /// must not reach files outside the folder).
    private static func isPlainFileName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/")
    }

    private static func fileSize(_ url: URL) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? nil
    }

    private static func reason(_ error: any Error) -> String {
        (error as NSError).localizedDescription
    }

    private func error(_ message: String, attribute: String, objectID: ManagedObjectID?) -> ManagedObjectError {
        let object = objectID.map { " of \($0)" } ?? ""
        return ManagedObjectError(
            .persistentStoreOperation, "external binary data of attribute \(attribute)\(object): \(message)",
            entityName: objectID?.entity.name, objectID: objectID, key: attribute)
    }
}
