// Two processes on one SQLite store, as an app and its background importer (or a widget, or a
// second server process) share one: the importer saves and batch deletes; the reader is told
// of each change (a remote change notification), fetches the persistent history after the last
// transaction it read, prints what it learns, and merges it into its context.
//
// `HistorySync` runs the reader, which starts `HistorySync import <store>` as its importer. The
// importer makes one transaction each time the reader asks (a line on its standard input), so
// the output is the same on every run; the reader ends when it has learnt three transactions.
import Foundation
import ManagedObjects

if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "import" {
    try runImporter(store: URL(fileURLWithPath: CommandLine.arguments[2]))
} else {
    try await runReader()
}

/// A container on the shared store with history and remote change notifications on.
func makeContainer(store: URL) throws -> PersistentContainer {
    let container = PersistentContainer(name: "HistorySync", managedObjectModel: HistorySyncModel.managedObjectModel)
    var description = PersistentStoreDescription(url: store)
    description.persistentHistoryTracking = true // NSPersistentHistoryTrackingKey
    description.postsRemoteChangeNotifications = true // NSPersistentStoreRemoteChangeNotificationPostOptionKey
    container.persistentStoreDescriptions = [description]
    try container.loadPersistentStores()
    return container
}

/// The importer: three transactions under its author, one per line the reader sends.
func runImporter(store: URL) throws {
    let context = try makeContainer(store: store).newBackgroundContext()
    context.transactionAuthor = "importer"
    let steps: [() throws -> Void] = [
        {
            for (code, name) in [("LHR", "Heathrow"), ("CDG", "Charles de Gaulle"), ("FRA", "Frankfurt")] {
                let airport = Airport(context: context)
                airport.code = code
                airport.name = name
            }
            try context.save()
        },
        {
            try Airport.fetch(ObjectPredicate("code == %@", "CDG"), in: context).first?.name = "Paris-Charles de Gaulle"
            try context.save()
        },
        {
            // A batch delete posts no did-save notification: history is how others learn of it.
            let fra = FetchRequest<ManagedObject>(entityName: "Airport", predicate: ObjectPredicate("code == %@", "FRA"))
            _ = try context.execute(BatchDeleteRequest(fetchRequest: fra))
        },
    ]
    for step in steps {
        guard readLine() != nil else { return } // the reader has gone
        try context.performAndWait(step)
    }
}

/// The reader: learns the importer's transactions through history and merges them.
func runReader() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("HistorySync-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = directory.appendingPathComponent("Shared.sqlite")
    let container = try makeContainer(store: store)
    let coordinator = container.persistentStoreCoordinator
    let context = container.newBackgroundContext()
    var lastToken = coordinator.currentPersistentHistoryToken(fromStores: nil)
    // The remote changes as an AsyncSequence (NotificationCenter has them as
    // .NSPersistentStoreRemoteChange, with the same store URL, UUID and history token).
    let changes = coordinator.remoteChanges

    let importer = Process()
    importer.executableURL = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
    importer.arguments = ["import", store.path]
    let requests = Pipe()
    importer.standardInput = requests
    importer.terminationHandler = { process in
        // The reader waits for the importer's transactions: an importer that failed ends it.
        if process.terminationStatus != 0 {
            print("the importer failed (exit \(process.terminationStatus))")
            exit(1)
        }
    }
    try importer.run()
    func askForTransaction() { requests.fileHandleForWriting.write(Data("next\n".utf8)) }
    askForTransaction()

    var learnt = 0
    for await remote in changes {
        let transactions = try context.performAndWait {
            try context.execute(PersistentHistoryChangeRequest.fetchHistory(after: lastToken)).transactions
        }
        for transaction in transactions {
            learnt += 1
            print("transaction \(transaction.transactionNumber) by \(transaction.author ?? "nobody") (told with history token \(remote.historyToken?.transactionNumber ?? 0)):")
            try context.performAndWait {
                for change in transaction.changes {
                    switch change.changeType {
                    case .insert:
                        print("  inserted \((try context.existingObject(with: change.changedObjectID) as? Airport)?.code ?? "?")")
                    case .update:
                        let airport = try context.existingObject(with: change.changedObjectID) as? Airport
                        print("  updated \(airport?.code ?? "?"): \((change.updatedPropertyNames ?? []).sorted().joined(separator: ", "))")
                    case .delete:
                        print("  deleted \(change.tombstone?["code"] as? String ?? "?") (its code kept in the tombstone)")
                    }
                }
                context.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
                let airports = try Airport.fetch(sortedBy: [ObjectSortDescriptor(key: "code", ascending: true)], in: context)
                print("  the reader now has: " + airports.map { "\($0.code ?? "") \($0.name ?? "")" }.joined(separator: "; "))
            }
            lastToken = transaction.token
        }
        // A change with nothing new (the importer opening the store) asks for nothing.
        if learnt >= 3 { break }
        if !transactions.isEmpty { askForTransaction() }
    }
    try requests.fileHandleForWriting.close()
    importer.waitUntilExit()
}
