// An importer as apps write one: a background child context builds 10,000 readings and pushes
// them to its parent, which saves them to an SQLite store; stations arrive again in the feed,
// and the parent's merge policy turns those duplicates into updates (an upsert). Then two
// contexts change the same station, and merge policies decide whose change wins.
import Foundation
import ManagedObjects

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("Importer-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
let container = PersistentContainer(name: "Importer", managedObjectModel: ImporterModel.managedObjectModel)
container.persistentStoreDescriptions = [PersistentStoreDescription(url: directory.appendingPathComponent("Importer.sqlite"))]
try container.loadPersistentStores()

// Stations already stored.
let setup = container.newBackgroundContext()
try setup.performAndWait {
    for (code, name) in [("LHR", "Heathrow"), ("CDG", "Charles de Gaulle")] {
        let station = Station(context: setup)
        station.code = code
        station.name = name
    }
    try setup.save()
}

// The import: a child context of a background writer. The feed names LHR again, with its city.
let writer = container.newBackgroundContext()
writer.mergePolicy = .mergeByPropertyObjectTrump
let importer = ManagedObjectContext(concurrencyType: .privateQueue, parent: writer)
try importer.performAndWait {
    let feed = [("LHR", "London Heathrow", "London"), ("FRA", "Frankfurt", "Frankfurt")]
    let stations = feed.map { code, name, city in
        let station = Station(context: importer)
        station.code = code
        station.name = name
        station.city = city
        return station
    }
    for number in 0..<10_000 {
        let reading = Reading(context: importer)
        reading.temperature = Double(number % 30)
        reading.date = Date(timeIntervalSinceReferenceDate: Double(number) * 60)
        reading.station = stations[number % stations.count]
    }
    try importer.save() // into the writer, not the store
}
try writer.performAndWait {
    print("writer has \(writer.insertedObjects.count) unsaved objects from the child")
    try writer.save() // to the store: the second LHR becomes an update of the stored one
}

let reader = container.newBackgroundContext()
try reader.performAndWait {
    let sort = [ObjectSortDescriptor(key: "code", ascending: true)]
    for station in try Station.fetch(sortedBy: sort, in: reader) {
        print("\(station.code ?? "") \(station.name ?? "") (\(station.city ?? "no city")): \(station.readings.count) readings")
    }
    print("readings stored: \(try Reading.count(in: reader))")
}

// A conflict: two contexts read CDG; one renames it and saves, then the other changes it.
func conflict(policy: MergePolicy) throws -> String {
    let mine = container.newBackgroundContext()
    let theirs = container.newBackgroundContext()
    mine.mergePolicy = policy
    return try mine.performAndWait {
        let station = try Station.fetch(ObjectPredicate("code == %@", "CDG"), in: mine)[0]
        let read = station.name ?? "" // the values this context read: the version it saves over
        try theirs.performAndWait {
            let same = try Station.fetch(ObjectPredicate("code == %@", "CDG"), in: theirs)[0]
            same.name = "Paris-Charles de Gaulle (theirs, \(policy))"
            same.city = "Paris"
            try theirs.save()
        }
        station.name = "CDG (mine, \(policy))"
        do {
            try mine.save()
        } catch let error as ManagedObjectError {
            mine.rollback()
            return "read \(read); save refused: \(error.code) with \(error.conflictList.count) conflict(s)"
        }
        return "read \(read); saved: \(station.name ?? "") (\(station.city ?? "no city"))"
    }
}
for policy: MergePolicy in [.error, .mergeByPropertyStoreTrump, .mergeByPropertyObjectTrump] {
    print("\(policy) policy: \(try conflict(policy: policy))")
}
