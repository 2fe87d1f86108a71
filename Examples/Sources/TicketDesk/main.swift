// A help desk's data served as JSON, without HTTP: each "request" below is what a Vapor or
// Hummingbird route would do on this runtime. Ticket fields are the app's enums
// (`TicketState`, `Priority`: user info `swiftType` in Desk.xcdatamodeld); `managedgen.json`
// turns snapshots on, so each class has a `Sendable`, `Codable` `Snapshot`, fetched straight
// from the SQLite store's rows into values that may leave the context's queue.
import Foundation
import ManagedObjects

public enum TicketState: String, Sendable, Codable, Hashable { case open, waiting, closed }
public enum Priority: Int, Sendable, Codable, Hashable { case low, normal, urgent }

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("TicketDesk-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
let container = PersistentContainer(name: "Desk", managedObjectModel: DeskModel.managedObjectModel)
container.persistentStoreDescriptions = [PersistentStoreDescription(url: directory.appendingPathComponent("Desk.sqlite"))]
try container.loadPersistentStores()

// Seed the store.
let seeding = container.newBackgroundContext()
let firstTicket: ObjectID<Ticket> = try seeding.performAndWait {
    let ada = Agent(context: seeding)
    ada.name = "Ada"
    let seeds: [(String, TicketState, Priority)] = [
        ("Printer on fire", .open, .urgent), ("VPN drops hourly", .waiting, .normal),
        ("New laptop", .closed, .low), ("Password reset", .open, .normal),
    ]
    var tickets: [Ticket] = []
    for (number, (title, state, priority)) in seeds.enumerated() {
        let ticket = Ticket(context: seeding)
        ticket.number = Int64(number + 1)
        ticket.title = title
        ticket.state = state
        ticket.priority = priority
        ticket.opened = Date(timeIntervalSinceReferenceDate: 780_000_000 + Double(number) * 3600)
        ticket.agent = number.isMultiple(of: 2) ? ada : nil
        tickets.append(ticket)
    }
    try seeding.save()
    return tickets[0].typedObjectID
}

let encoder = JSONEncoder()
encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
encoder.dateEncodingStrategy = .iso8601
let decoder = JSONDecoder()
decoder.dateDecodingStrategy = .iso8601

/// One "route": runs on a context of its own, returns the response body.
func respond(_ route: String, _ body: @escaping @Sendable (ManagedObjectContext) throws -> Data) async throws {
    let data = try await Task.detached {
        let context = container.newBackgroundContext()
        return try context.performAndWait { try body(context) }
    }.value
    print("GET \(route)")
    print(String(decoding: data, as: UTF8.self))
}

let byNumber = [ObjectSortDescriptor(key: Ticket.Keys.number, ascending: true)]
// Open tickets: the predicate compares the stored raw value of the enum.
try await respond("/tickets?state=open") { context in
    try encoder.encode(try Ticket.fetchSnapshots(where: ObjectPredicate("state == %@", TicketState.open.rawValue), sortedBy: byNumber, in: context))
}
// A typed query on the enum (translated to `priority == 2`), then snapshots of the result.
try await respond("/tickets?priority=urgent") { context in
    let wanted = Priority.urgent
    let urgent = try Ticket.fetch(where: #Predicate { $0.priority == wanted }, in: context)
    return try encoder.encode(urgent.map { $0.snapshot() })
}
// One ticket by the typed ID another task handed over; its agent by the snapshot's typed ID.
try await respond("/tickets/1") { context in
    let ticket: Ticket = try context.existingObject(with: firstTicket)
    let snapshot = ticket.snapshot()
    let agent = try snapshot.agent.map { try context.existingObject(with: $0).name } ?? "nobody"
    print("ticket 1 is \(snapshot.state?.rawValue ?? "?"), \(snapshot.priority), with \(agent)")
    return try encoder.encode(snapshot)
}
// A client sends a changed ticket back as JSON: decode it and apply it to the object.
let changed = try await Task.detached {
    let context = container.newBackgroundContext()
    return try context.performAndWait {
        guard var snapshot = try Ticket.fetchSnapshots(where: ObjectPredicate("number == 2"), in: context).first else {
            throw CocoaError(.coderValueNotFound)
        }
        snapshot.state = .closed
        return try encoder.encode(snapshot)
    }
}.value
let editing = container.newBackgroundContext()
try editing.performAndWait {
    let snapshot = try decoder.decode(Ticket.Snapshot.self, from: changed)
    try snapshot.apply(to: editing.object(with: snapshot.objectID))
    try editing.save()
}
try await respond("/tickets?state=closed") { context in
    let closed = try Ticket.fetchSnapshots(where: ObjectPredicate("state == %@", "closed"), sortedBy: byNumber, in: context)
    print("closed tickets: \(closed.map(\.number))")
    return try encoder.encode(closed.map(\.title))
}
