import Foundation
import ManagedObjects
import ModelFileLoading

/// Any bytes as an SQLite store file, opened with each model that wrote a store in
/// ../shared/stores: the open throws and the file holds exactly the bytes it held before, or it
/// opens and every object of every entity reads whole (or a read throws). Never a trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStoreOpener(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: start, count: count))
    for model in Models.shared.models {
        let directory = Models.shared.scratch.appendingPathComponent(UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Fuzz.sqlite")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try bytes.write(to: url)
        } catch {
            fatalError("could not write the input: \(error)")
        }
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        do {
            try coordinator.addPersistentStore(type: .sqlite, at: url)
        } catch {
            guard (try? Data(contentsOf: url)) == bytes else { fatalError("a failed open (\(error)) changed the file") }
            continue
        }
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
    let scratch: URL

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
        // Scratch files in memory where the system offers it: each input is written once per model.
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? URL(fileURLWithPath: "/dev/shm") : FileManager.default.temporaryDirectory
        scratch = base.appendingPathComponent("FuzzStoreOpener-\(ProcessInfo.processInfo.processIdentifier)")
    }
}
