import DataModel
import Foundation
import Testing
@testable import ManagedObjects

@Suite("ManagedObject")
struct ObjectTests {
    @Test("insert: registered, inserted, temporary ID, context set", arguments: StoreKind.allCases)
    func insert(kind: StoreKind) throws {
        try withContext(TwitterModel.managedObjectModel, kind: kind) { (context) throws in
            let tweet = Tweet(context: context)
            #expect(tweet.managedObjectContext === context)
            #expect(tweet.isInserted && !tweet.isUpdated && !tweet.isDeleted && tweet.hasChanges)
            #expect(tweet.objectID.isTemporaryID)
            #expect(tweet.objectID.uriRepresentation.absoluteString.hasPrefix("x-coredata:///Tweet/t"))
            #expect(tweet.entity.name == "Tweet")
            #expect(context.insertedObjects == [tweet])
            #expect(context.registeredObjects == [tweet])
            #expect(context.hasChanges)
            #expect(context.object(with: tweet.objectID) === tweet)
            #expect(!tweet.isFault)
        }
    }

    @Test("each new object starts from its own copy of the defaults, plain data copied byte for byte or not")
    func newObjectsOwnTheirDefaults() throws {
        let model = ManagedObjectModel(Model(entities: [
            Entity(name: "Plain", attributes: [
                Attribute(name: "count", type: .integer64, defaultValueString: "7"),
                Attribute(name: "ratio", type: .double, defaultValueString: "0.5"),
                Attribute(name: "flag", type: .boolean, defaultValueString: "YES"),
                Attribute(name: "when", type: .date, isOptional: true),
            ]),
            Entity(name: "Mixed", attributes: [
                Attribute(name: "label", type: .string, defaultValueString: "a label longer than fifteen bytes"),
                Attribute(name: "count", type: .integer64, defaultValueString: "7"),
            ]),
        ]))
        let plain = try #require(model.entitiesByName["Plain"])
        let mixed = try #require(model.entitiesByName["Mixed"])
        #expect(plain.initialValuesArePlainData && !mixed.initialValuesArePlainData)
        try withContext(model) { context in
            for entity in [plain, mixed] {
                let first = ManagedObject(entity: entity, insertInto: context)
                let second = ManagedObject(entity: entity, insertInto: context)
                for (index, value) in entity.initialValues.enumerated() {
                    #expect(ValueComparison.equal(first.values[index], value), "\(entity.name) \(index)")
                }
                first.setValue(8, forKey: "count")
                if entity === plain {
                    first.setValue(Date(timeIntervalSinceReferenceDate: 1), forKey: "when")
                } else {
                    first.setValue("changed", forKey: "label")
                }
                #expect(second.value(forKey: "count") as? Int == 7)
                #expect(ManagedObject(entity: entity, insertInto: context).value(forKey: "count") as? Int == 7)
                #expect(first.value(forKey: "count") as? Int == 8)
            }
            let other = ManagedObject(entity: plain, insertInto: context)
            #expect(other.value(forKey: "when") == nil && other.value(forKey: "ratio") as? Double == 0.5)
            #expect(ManagedObject(entity: mixed, insertInto: context).value(forKey: "label") as? String == "a label longer than fifteen bytes")
        }
    }

    @Test("an object made without a context joins one with insert", arguments: StoreKind.allCases)
    func insertLater(kind: StoreKind) throws {
        try withContext(TwitterModel.managedObjectModel, kind: kind) { (context) throws in
            let entity = try #require(context.managedObjectModel["TwitterUser"])
            let user = TwitterUser(entity: entity, insertInto: nil)
            #expect(user.managedObjectContext == nil && !user.isInserted)
            user.name = "Detached"
            context.insert(user)
            #expect(user.isInserted && user.managedObjectContext === context)
            #expect(user.name == "Detached")
        }
    }

    @Test("typed accessors and key-value coding read and write the same storage", arguments: StoreKind.allCases)
    func keyValueCoding(kind: StoreKind) throws {
        try withContext(TwitterModel.managedObjectModel, kind: kind) { (context) throws in
            let tweet = Tweet(context: context)
            let created = Date(timeIntervalSinceReferenceDate: 1000)
            tweet.text = "140 characters of pure joy"
            tweet.created = created
            #expect(tweet.value(forKey: Tweet.Keys.text) as? String == "140 characters of pure joy")
            #expect(tweet.value(forKey: "created") as? Date == created)
            tweet.setValue("changed", forKey: "text")
            #expect(tweet.text == "changed")
            #expect(tweet.value(forKey: "noSuchKey") == nil)
            tweet.setValue(nil, forKey: "text")
            #expect(tweet.text == nil)
        }
    }

    @Test("setValue(_:forKey:) converts numbers to the storage type", arguments: StoreKind.allCases)
    func numberConversion(kind: StoreKind) throws {
        try withContext(EnrouteModel.managedObjectModel, kind: kind) { (context) throws in
            let flight = Flight(context: context)
            flight.setValue(450, forKey: Flight.Keys.filedAirspeed_)
            #expect(flight.filedAirspeed_ == 450)
            #expect(flight.value(forKey: Flight.Keys.filedAirspeed_) is Int16)
            flight.setValue(NSNumber(value: 300), forKey: Flight.Keys.filedAirspeed_)
            #expect(flight.filedAirspeed_ == 300)
            let airport = Airport(context: context)
            airport.setValue(51, forKey: Airport.Keys.latitude)
            #expect(airport.latitude == 51.0)
            #expect(airport.value(forKey: "latitude") is Double)
        }
    }

    @Test("value(forKeyPath:) follows to-one and to-many relationships", arguments: StoreKind.allCases)
    func keyPaths(kind: StoreKind) throws {
        try withContext(TwitterModel.managedObjectModel, kind: kind) { (context) throws in
            let joe = TwitterUser(context: context)
            joe.name = "Joe Schmo"
            let first = Tweet(context: context)
            first.text = "one"
            first.tweeter = joe
            let second = Tweet(context: context)
            second.text = "two"
            second.tweeter = joe
            #expect(first.value(forKeyPath: "tweeter.name") as? String == "Joe Schmo")
            #expect(first.value(forKeyPath: "text") as? String == "one")
            let texts = try #require(joe.value(forKeyPath: "tweets.text") as? [Any])
            #expect(Set(texts.compactMap { $0 as? String }) == ["one", "two"])
            // Back through the to-one: one user, not two (unordered steps drop repeats).
            let names = try #require(joe.value(forKeyPath: "tweets.tweeter.name") as? [Any])
            #expect(names.count == 1)
            #expect(joe.value(forKeyPath: "tweets.@count") as? Int == 2)
            #expect(joe.value(forKey: "tweets") as? Set<Tweet> == [first, second])
            first.setValue("Joseph", forKeyPath: "tweeter.name")
            #expect(joe.name == "Joseph")
            #expect(Tweet(context: context).value(forKeyPath: "tweeter.name") == nil)
        }
    }

    @Test("key paths through an ordered to-many keep order; aggregates", arguments: StoreKind.allCases)
    func orderedKeyPathsAndAggregates(kind: StoreKind) throws {
        try withContext(EnrouteModel.managedObjectModel, kind: kind) { (context) throws in
            let sfo = try Airport.withICAO("KSFO", in: context)
            for (ident, speed) in [("B", 300), ("A", 500), ("C", 400)] {
                let flight = Flight(context: context)
                flight.ident_ = ident
                flight.filedAirspeed_ = Int16(speed)
                flight.origin_ = sfo
            }
            #expect(sfo.value(forKeyPath: "flightsFrom_.@count") as? Int == 3)
            // @sum of integers is an integer (Docs/RuntimeDifferences.md: collection operators).
            #expect(sfo.value(forKeyPath: "flightsFrom_.filedAirspeed_.@sum") as? Int == 1200)
            #expect(sfo.value(forKeyPath: "flightsFrom_.filedAirspeed_.@avg") as? Double == 400)
            #expect(sfo.value(forKeyPath: "flightsFrom_.filedAirspeed_.@max") as? Int16 == 500)
            #expect(sfo.value(forKeyPath: "flightsFrom_.ident_.@min") as? String == "A")
            #expect(sfo.value(forKeyPath: "flightsFrom_.@sum.filedAirspeed_") as? Int == 1200)
            #expect(sfo.value(forKeyPath: "flightsFrom_.@max.ident_") as? String == "C")
        }
        try withContext(DogWalkModel.managedObjectModel, kind: kind) { (context) throws in
            let dog = Dog(context: context)
            let day = Date(timeIntervalSinceReferenceDate: 0)
            for _ in 0..<2 {
                let walk = Walk(context: context)
                walk.date = day
                dog.addToWalks(walk)
            }
            // Ordered: values in order, repeats kept (Core Data: an ordered set of the walks' dates).
            #expect((dog.value(forKeyPath: "walks.date") as? [Any])?.count == 2)
            #expect(dog.value(forKey: "walks") as? OrderedSet<ManagedObject> == OrderedSet(dog.walks.map { $0 as ManagedObject }))
            dog.name = "Rex"
            try context.save()
            dog.name = nil
            #expect(dog.changedValues()["name"] is NSNull)
            #expect(dog.committedValues(forKeys: ["name"])["name"] as? String == "Rex")
        }
    }

    @Test("primitive access stores values as they are, without inverse maintenance", arguments: StoreKind.allCases)
    func primitiveAccess(kind: StoreKind) throws {
        try withContext(TwitterModel.managedObjectModel, kind: kind) { (context) throws in
            let tweet = Tweet(context: context)
            let joe = TwitterUser(context: context)
            tweet.setPrimitiveValue("raw", forKey: "text")
            #expect(tweet.primitiveValue(forKey: "text") as? String == "raw")
            tweet.setPrimitiveValue(joe, forKey: "tweeter")
            #expect(tweet.tweeter === joe)
            #expect(joe.tweets.isEmpty)
        }
    }

    @Test("changedValues and committedValues track what differs from the store", arguments: StoreKind.allCases)
    func changes(kind: StoreKind) throws {
        try withContext(TwitterModel.managedObjectModel, kind: kind) { (context) throws in
            let tweet = Tweet(context: context)
            tweet.text = "draft"
            #expect(Set(tweet.changedValues().keys) == ["text"])
            #expect(tweet.committedValues(forKeys: nil).isEmpty)
            try context.save()
            #expect(tweet.changedValues().isEmpty)
            #expect(!tweet.hasChanges)

            tweet.text = "final"
            #expect(tweet.isUpdated)
            #expect(tweet.changedValues()["text"] as? String == "final")
            #expect(tweet.committedValues(forKeys: ["text"])["text"] as? String == "draft")
            #expect(context.updatedObjects == [tweet])
            tweet.text = "draft"
            #expect(tweet.changedValues().isEmpty)
        }
    }

    @Test("setting a value to what it already is changes nothing", arguments: StoreKind.allCases)
    func sameValue(kind: StoreKind) throws {
        try withContext(TwitterModel.managedObjectModel, kind: kind) { (context) throws in
            let tweet = Tweet(context: context)
            tweet.text = "same"
            try context.save()
            tweet.text = "same"
            #expect(!tweet.isUpdated && !context.hasChanges)
        }
    }

    @Test("lifecycle hooks run at insert, fetch, delete and save", arguments: StoreKind.allCases)
    func lifecycle(kind: StoreKind) throws {
        let files = try TemporaryDirectory()
        let container = try makeContainer(HookModel.managedObjectModel, kind: kind, files: files)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let note = Note(context: context)
            #expect(note.events == ["awakeFromInsert"])
            #expect(note.title == "inserted")
            try context.save()
            #expect(note.events == ["awakeFromInsert", "willSave", "didSave"])
            #expect(note.stamp == 1)
            context.delete(note)
            #expect(note.events.last == "prepareForDeletion")
            context.rollback()
        }
        let other = container.newBackgroundContext()
        try other.performAndWait {
            let fetched = try other.fetch(FetchRequest<Note>(entityName: "Note"))
            #expect(fetched.count == 1)
            let note = try #require(fetched.first)
            // A fetched object is a fault: awakeFromFetch runs when it fires.
            #expect(note.isFault && note.events.isEmpty)
            #expect(note.title == "inserted")
            #expect(!note.isFault && note.events == ["awakeFromFetch"])
            other.refresh(note, mergeChanges: false)
            #expect(note.isFault && note.events == ["awakeFromFetch", "willTurnIntoFault", "didTurnIntoFault"])
            _ = note.title
            #expect(note.events.last == "awakeFromFetch", "firing again awakes it again")
        }
    }

    @Test("identity: Hashable and Identifiable by object, one object per ID per context", arguments: StoreKind.allCases)
    func identity(kind: StoreKind) throws {
        let files = try TemporaryDirectory()
        let container = try makeContainer(TwitterModel.managedObjectModel, kind: kind, files: files)
        let context = container.newBackgroundContext()
        let id = try context.performAndWait {
            let a = Tweet(context: context)
            let b = Tweet(context: context)
            a.text = "same"
            b.text = "same"
            #expect(a != b)
            #expect(a.id != b.id)
            #expect(Set([a, b, a]).count == 2)
            try context.save()
            let fetched = try context.fetch(Tweet.fetchRequest())
            #expect(fetched.contains { $0 === a } && fetched.contains { $0 === b })
            #expect(context.object(with: a.objectID) === a)
            return a.objectID
        }
        let other = container.newBackgroundContext()
        other.performAndWait {
            let first = other.object(with: id)
            #expect(other.object(with: id) === first)
            #expect(first.value(forKey: "text") as? String == "same")
        }
    }
}

/// A class that records its lifecycle hooks, as a user's subclass overriding them would.
final class Note: ManagedObject {
    override class var entityName: String { "Note" }
    var events: [String] = []

    var title: String? {
        get { attributeValue(at: 0) }
        set { setAttributeValue(newValue, at: 0) }
    }

    var stamp: Int64 {
        get { attributeValue(at: 1) ?? 0 }
        set { setAttributeValue(newValue, at: 1) }
    }

    override func awakeFromInsert() {
        events.append("awakeFromInsert")
        title = "inserted"
    }

    override func awakeFromFetch() { events.append("awakeFromFetch") }
    override func prepareForDeletion() { events.append("prepareForDeletion") }
    override func willTurnIntoFault() { events.append("willTurnIntoFault") }
    override func didTurnIntoFault() { events.append("didTurnIntoFault") }

    override func willSave() {
        events.append("willSave")
        if !isDeleted { stamp += 1 }
    }

    override func didSave() { events.append("didSave") }
}

enum HookModel {
    static let managedObjectModel = ManagedObjectModel(Model(entities: [
        Entity(name: "Note", representedClassName: "Note", attributes: [
            Attribute(name: "title", type: .string, isOptional: true),
            Attribute(name: "stamp", type: .integer64, isOptional: true),
        ]),
    ]), classes: ["Note": Note.self])
}
