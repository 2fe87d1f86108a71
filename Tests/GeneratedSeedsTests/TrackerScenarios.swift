// The generated `Ticket` and `Person` (Models/Tracker.xcdatamodel): attributes typed with the
// app's enums through user info (`swiftType`, `enumType`, SwiftGen's `RawType`), snapshots
// (`managedgen.snapshots` on both entities) and typed object IDs, on an SQLite store.
import Foundation
import Logging
import ManagedObjects
import Testing

/// The app's types the Tracker model names (`GoldenCase.trackerEnums` declares the same for the
/// generator's compile checks).
public enum TicketState: String, Sendable, Codable, Hashable { case open, inProgress, closed }
public enum TicketPriority: Int, Sendable, Codable, Hashable { case low, normal, high }
public enum TicketSeverity: UInt8, Sendable, Codable, Hashable { case unknown, minor, major, critical }

@Suite struct TrackerScenarios {
    /// A fresh SQLite store in a directory of its own; `reopen` opens the same file again.
    final class Store: Sendable {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tracker-\(UUID().uuidString)")
        var url: URL { directory.appendingPathComponent("Tracker.sqlite") }

        init() throws {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(at: directory) }

        func open() throws -> PersistentContainer {
            let container = PersistentContainer(name: "Tracker", managedObjectModel: TrackerModel.managedObjectModel)
            container.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
            try container.loadPersistentStores()
            return container
        }
    }

    @Test func enumAttributesAreSavedAsRawValuesAndReadBack() throws {
        let store = try Store()
        let writer = try store.open().newBackgroundContext()
        try writer.performAndWait {
            let ticket = Ticket(context: writer)
            ticket.number = 1
            ticket.state = .inProgress
            ticket.priority = .high
            ticket.severity = .critical
            let other = Ticket(context: writer)
            other.number = 2
            other.state = .closed
            #expect(other.priority == .normal, "the model's default raw value 1 reads as the type's .normal")
            #expect(other.severity == nil)
            try writer.save()
        }
        let reader = try store.open().newBackgroundContext()
        try reader.performAndWait {
            let tickets = try Ticket.fetch(sortedBy: [ObjectSortDescriptor(key: Ticket.Keys.number, ascending: true)], in: reader)
            #expect(tickets.map(\.state) == [.inProgress, .closed])
            #expect(tickets.map(\.priority) == [.high, .normal])
            #expect(tickets.map(\.severity) == [.critical, nil])
            // The store holds the raw values in the attributes' own types.
            #expect(tickets[0].value(forKey: Ticket.Keys.state) as? String == "inProgress")
            #expect(tickets[0].value(forKey: Ticket.Keys.priority) as? Int == 2)
            #expect(tickets[0].value(forKey: Ticket.Keys.severity) as? Int == 3)
            // Typed predicates compare raw values, in SQL.
            let closed = TicketState.closed, high = TicketPriority.high, critical = TicketSeverity.critical
            #expect(try Ticket.fetch(where: #Predicate { $0.state == closed }, in: reader).map(\.number) == [2])
            #expect(try Ticket.count(where: #Predicate { $0.priority == high }, in: reader) == 1)
            #expect(try Ticket.fetch(where: #Predicate { $0.severity == critical }, in: reader).map(\.number) == [1])
            #expect(try ObjectPredicate(#Predicate<Ticket> { $0.state == closed }).predicateFormat == "state == \"closed\"")
        }
    }

    @Test func anUnknownRawValueReadsAsNilOrTheDefaultAndIsLogged() throws {
        let log = RecordedLog()
        let previous = ManagedObjectsLog.logger
        ManagedObjectsLog.logger = Logger(label: "tracker-test") { _ in log }
        defer { ManagedObjectsLog.logger = previous }

        let store = try Store()
        let writer = try store.open().newBackgroundContext()
        try writer.performAndWait {
            // What another program (or an older version of the app) may have saved.
            let ticket = Ticket(context: writer)
            ticket.setValue("archived", forKey: Ticket.Keys.state)
            ticket.setValue(NSNumber(value: 7), forKey: Ticket.Keys.priority)
            ticket.setValue(NSNumber(value: 99), forKey: Ticket.Keys.severity)
            try writer.save()
        }
        let reader = try store.open().newBackgroundContext()
        try reader.performAndWait {
            let ticket = try #require(try Ticket.fetch(in: reader).first)
            #expect(ticket.state == nil)
            #expect(ticket.priority == .normal, "the user info's default (swiftTypeDefault)")
            #expect(ticket.severity == .unknown, "the user info's default (managedgen.swiftTypeDefault)")
            let snapshot = try #require(try Ticket.fetchSnapshots(in: reader).first)
            #expect(snapshot.state == nil && snapshot.priority == .normal && snapshot.severity == .unknown)
        }
        let lines = log.messages.filter { $0.hasPrefix("Ticket.") }
        #expect(lines.contains { $0.hasPrefix("Ticket.state: stored value archived is not a raw value of TicketState") })
        #expect(lines.contains { $0.hasPrefix("Ticket.priority: stored value 7 is not a raw value of TicketPriority; read as normal") })
        #expect(lines.contains { $0.hasPrefix("Ticket.severity: stored value 99 is not a raw value of TicketSeverity; read as unknown") })
    }

    @Test func snapshotsRoundTripThroughJSONAndApplyBack() throws {
        let store = try Store()
        let container = try store.open()
        let writer = container.newBackgroundContext()
        try writer.performAndWait {
            let ada = Person(context: writer)
            ada.name = "Ada"
            ada.snapshot_ = "a property named snapshot keeps its key"
            let grace = Person(context: writer)
            grace.name = "Grace"
            for number in 1...3 {
                let ticket = Ticket(context: writer)
                ticket.number = Int64(number)
                ticket.title = "ticket \(number)"
                ticket.state = number == 3 ? .closed : .open
                ticket.estimate = NSNumber(value: Double(number) / 2)
                ticket.labels = ["l\(number)"]
                ticket.created = Date(timeIntervalSinceReferenceDate: Double(number) * 1000)
                ticket.assignee = number == 2 ? nil : ada
                ticket.watchers = number == 1 ? [ada, grace] : []
            }
            try writer.save()
        }
        let reader = container.newBackgroundContext()
        let json = try reader.performAndWait {
            let sorted = [ObjectSortDescriptor(key: Ticket.Keys.number, ascending: true)]
            let fromRows = try Ticket.fetchSnapshots(sortedBy: sorted, in: reader)
            #expect(reader.registeredObjects.isEmpty, "fetchSnapshots makes no managed object")
            let fromObjects = try Ticket.fetch(sortedBy: sorted, in: reader).map { $0.snapshot() }
            #expect(fromRows == fromObjects)
            #expect(fromRows.map(\.title) == ["ticket 1", "ticket 2", "ticket 3"])
            #expect(fromRows.map(\.estimate) == [0.5, 1, 1.5])
            #expect(fromRows.map(\.labels) == [["l1"], ["l2"], ["l3"]])
            #expect(fromRows[0].watchers.count == 2 && fromRows[1].assignee == nil)
            let open = try Ticket.fetchSnapshots(where: ObjectPredicate("state == %@", "open"), sortedBy: sorted, in: reader)
            #expect(open.map(\.number) == [1, 2])
            let ada = try #require(try Person.fetchSnapshots(where: ObjectPredicate("name == %@", "Ada"), in: reader).first)
            #expect(ada.snapshot_ == "a property named snapshot keeps its key")
            #expect(Set(ada.assigned) == Set([fromRows[0].objectID, fromRows[2].objectID]))
            #expect(fromRows[0].assignee == ada.objectID)
            return try JSONEncoder().encode(fromRows)
        }
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.contains("\"state\":\"open\"") && text.contains("x-coredata:"))

        let decoded = try JSONDecoder().decode([Ticket.Snapshot].self, from: json)
        let editor = container.newBackgroundContext()
        try editor.performAndWait {
            let original = try Ticket.fetchSnapshots(sortedBy: [ObjectSortDescriptor(key: Ticket.Keys.number, ascending: true)], in: editor)
            #expect(decoded == original)
            var changed = decoded[1]
            changed.title = "renamed"
            changed.state = .inProgress
            changed.assignee = decoded[0].assignee
            changed.watchers = decoded[0].watchers
            try changed.apply(to: editor.object(with: changed.objectID))
            try editor.save()
        }
        let checker = container.newBackgroundContext()
        try checker.performAndWait {
            let ticket = try checker.existingObject(with: decoded[1].objectID)
            #expect(ticket.title == "renamed" && ticket.state == .inProgress)
            #expect(ticket.assignee?.name == "Ada")
            #expect(Set(ticket.watchers.compactMap(\.name)) == ["Ada", "Grace"])
        }
    }

    @Test func typedObjectIDsCrossTasks() async throws {
        let store = try Store()
        let container = try store.open()
        let writer = container.newBackgroundContext()
        let (ticketID, personID): (ObjectID<Ticket>, ObjectID<Person>) = try writer.performAndWait {
            let person = Person(context: writer)
            person.name = "Ada"
            let ticket = Ticket(context: writer)
            ticket.title = "across"
            ticket.assignee = person
            #expect(ticket.typedObjectID.isTemporaryID)
            try writer.save()
            return (ticket.typedObjectID, person.typedObjectID)
        }
        #expect(!ticketID.isTemporaryID)
        // The IDs are Sendable: another task finds the objects through them, typed, in its own context.
        let snapshot = try await Task.detached {
            let reader = container.newBackgroundContext()
            return try reader.performAndWait {
                let ticket: Ticket = try reader.existingObject(with: ticketID)
                let person: Person = reader.object(with: personID)
                #expect(ticket.assignee === person)
                #expect(ticket.assignee?.typedObjectID == personID)
                return ticket.snapshot()
            }
        }.value
        #expect(snapshot.objectID == ticketID && snapshot.title == "across" && snapshot.assignee == personID)

        // Codable as its URI; decoded against the generated model that binds the class.
        let encoded = try JSONEncoder().encode([ticketID])
        #expect(String(decoding: encoded, as: UTF8.self) == "[\"\(ticketID.uriRepresentation.absoluteString.replacingOccurrences(of: "/", with: "\\/"))\"]")
        #expect(try JSONDecoder().decode([ObjectID<Ticket>].self, from: encoded) == [ticketID])
        // A Ticket's URI is no Person's ID; the coordinator given to the decoder must have the store.
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([ObjectID<Person>].self, from: encoded) }
        let decoder = JSONDecoder()
        decoder.userInfo[ObjectID<Ticket>.persistentStoreCoordinatorKey] = container.persistentStoreCoordinator
        #expect(try decoder.decode([ObjectID<Ticket>].self, from: encoded) == [ticketID])
        let otherStore = try Store()
        decoder.userInfo[ObjectID<Ticket>.persistentStoreCoordinatorKey] = try otherStore.open().persistentStoreCoordinator
        #expect(throws: DecodingError.self) { try decoder.decode([ObjectID<Ticket>].self, from: encoded) }

        // A deleted object's ID: existingObject(with:) throws 133000, typed as untyped.
        try writer.performAndWait {
            writer.delete(try writer.existingObject(with: ticketID))
            try writer.save()
        }
        let after = container.newBackgroundContext()
        after.performAndWait { () -> Void in
            #expect { _ = try after.existingObject(with: ticketID) } throws: { error in
                (error as? ManagedObjectError)?.code == .referentialIntegrity
            }
        }
    }
}

/// Log lines sent to a test's logger.
final class RecordedLog: LogHandler, @unchecked Sendable {
    // Unchecked: `lines` is used only while holding `lock`.
    private let lock = NSLock()
    private var lines: [String] = []
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    var messages: [String] { lock.withLock { lines } }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lock.withLock { lines.append(event.message.description) }
    }
}
