import Foundation
import ManagedObjects
import ModelFileLoading

/// Any bytes as an SQLite store file, opened with each model that wrote a store in
/// ../shared/stores: the open throws and the file holds exactly the bytes it held before, or it
/// opens and every object of every entity reads whole (or a read throws). Never a trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStoreOpener(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: start, count: count))
    let url = Models.shared.storeURL
    // The file is written once per input and kept while opens fail: each failed open is
    // checked to leave it byte for byte as it was, so the next model opens the input itself.
    // An open that succeeds may change it (WAL mode), so the next model gets it written anew.
    var fileHoldsInput = false
    defer { Models.shared.removeStoreFiles() }
    for model in Models.shared.models {
        if !fileHoldsInput {
            Models.shared.removeStoreFiles()
            do {
                try bytes.write(to: url)
            } catch {
                fatalError("could not write the input: \(error)")
            }
        }
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        do {
            try coordinator.addPersistentStore(type: .sqlite, at: url)
        } catch {
            guard Models.shared.storeFileHolds(bytes) else { fatalError("a failed open (\(error)) changed the file") }
            // What a read-only look at a WAL-mode file may leave beside it goes, so each model
            // opens the file alone, as a fresh directory would have it.
            Models.shared.removeSidecarFiles()
            fileHoldsInput = true
            continue
        }
        fileHoldsInput = false
        // Opened: every object reads whole, or a read throws (a corrupt page found late).
        _ = try? readEverything(through: coordinator)
    }
    return 0
}

/// Reads every property of every object of every entity; the number of values read.
func readEverything(through coordinator: PersistentStoreCoordinator) throws -> Int {
    let model = coordinator.managedObjectModel
    let context = ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: coordinator)
    return try context.performAndWait {
        var read = 0
        for entity in model.entities {
            let request = FetchRequest<ManagedObject>(entityName: entity.name)
            request.includesSubentities = false
            for object in try context.fetch(request) {
                for name in entity.propertiesByName.keys {
                    _ = object.value(forKey: name)
                    read += 1
                }
            }
        }
        return read
    }
}

/// The models of the stores in ../shared/stores ($FUZZ_SHARED, set by Scripts/fuzz.sh).
final class Models: Sendable {
    static let shared = Models()
    let models: [ManagedObjectModel]
    /// Where each input is written: `Fuzz.sqlite` in a directory of this process's own.
    let storeURL: URL
    private let sidecarPaths: [String]

    static let versions = [
        ("alemar11__CoreDataPlus/Tests/Resources/SampleModel/SampleModel.xcdatamodeld", "SampleModel"),
        ("alemar11__CoreDataPlus/Tests/Resources/SampleModel3/SampleModel3.xcdatamodeld", "SampleModel3"),
        ("raywenderlich__cdt-materials/09-multiple-managed-object-contexts/projects/final/SurfJournal/SurfJournal/SurfJournalModel.xcdatamodeld",
         "SurfJournalModel"),
    ]

    private init() {
        guard let shared = ProcessInfo.processInfo.environment["FUZZ_SHARED"] else {
            fatalError("set FUZZ_SHARED to the shared folder (Scripts/fuzz.sh does)")
        }
        let corpus = URL(fileURLWithPath: shared).appendingPathComponent("corpus")
        do {
            models = try Self.versions.map { path, version in
                try ManagedObjectModel(contentsOf: corpus.appendingPathComponent(path), versionName: version)
            }
        } catch {
            fatalError("could not read the models: \(error)")
        }
        // Scratch files in memory where the system offers it: one directory for the process,
        // made once, holding one store file at a time.
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? URL(fileURLWithPath: "/dev/shm") : FileManager.default.temporaryDirectory
        let scratch = base.appendingPathComponent("FuzzStoreOpener-\(ProcessInfo.processInfo.processIdentifier)")
        do {
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        } catch {
            fatalError("could not make the scratch directory \(scratch.path): \(error)")
        }
        let storeURL = scratch.appendingPathComponent("Fuzz.sqlite")
        self.storeURL = storeURL
        sidecarPaths = ["-wal", "-shm", "-journal"].map { storeURL.path + $0 }
    }

    /// Whether the store file holds exactly `bytes`: read with one `read` call into a buffer one
    /// byte longer, so a file that grew shows (`Data(contentsOf:)` cost more than the open).
    func storeFileHolds(_ bytes: Data) -> Bool {
        let descriptor = open(storeURL.path, O_RDONLY)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: bytes.count + 1)
        var filled = 0
        while filled < buffer.count {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            guard count > 0 else { break }
            filled += count
        }
        guard filled == bytes.count else { return false }
        return filled == 0 || bytes.withUnsafeBytes { input in memcmp(input.baseAddress!, buffer, filled) == 0 }
    }

    /// Removes the files SQLite keeps beside a store (absent ones are no error).
    func removeSidecarFiles() {
        for path in sidecarPaths { unlink(path) }
    }

    /// Removes the store file and the files beside it.
    func removeStoreFiles() {
        unlink(storeURL.path)
        removeSidecarFiles()
    }
}
