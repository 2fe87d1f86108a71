import Foundation
@testable import ManagedObjects
import Testing

/// A `#Predicate` and the format string it stands for.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
struct TypedCase<Object: FetchableManagedObject>: CustomTestStringConvertible, @unchecked Sendable {
    // Unchecked: the captured values are immutable test constants.
    let predicate: Predicate<Object>
    let format: String
    let arguments: [Any?]
    var testDescription: String { format }

    init(_ format: String, _ arguments: Any?..., predicate: Predicate<Object>) {
        self.format = format
        self.arguments = arguments
        self.predicate = predicate
    }
}

/// The zoo every case runs on: keepers with and without names, mentors, animals and dogs.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
enum Zoo {
    static let cutoff = Date(timeIntervalSinceReferenceDate: 700_000_000)

    /// Inserts the zoo and saves; returns Ann (a captured value in some cases).
    @discardableResult
    static func insert(into context: ManagedObjectContext) throws -> Warden {
        func warden(_ name: String?, age: Int64, rating: Double, active: Bool, hired: Double?, nickname: String?) -> Warden {
            let warden = Warden(context: context)
            warden.name = name
            warden.age = age
            warden.rating = rating
            warden.active = active
            warden.hired = hired.map { Date(timeIntervalSinceReferenceDate: $0) }
            warden.nickname_ = nickname
            return warden
        }
        let ann = warden("Ann", age: 41, rating: 4.8, active: true, hired: 600_000_000, nickname: "Red")
        let bob = warden("Bob", age: 25, rating: 3.9, active: false, hired: 710_000_000, nickname: nil)
        let cho = warden("Chong", age: 33, rating: 4.5, active: true, hired: nil, nickname: "Blue")
        let nameless = warden(nil, age: 58, rating: 2.0, active: false, hired: 720_000_000, nickname: nil)
        _ = warden("", age: 19, rating: 5.0, active: true, hired: 650_000_000, nickname: "")
        bob.mentor = ann
        cho.mentor = bob
        nameless.mentor = ann
        func animal(_ name: String, legs: Int16, warden: Warden?, breed: String? = nil, dog: Bool = false) {
            let animal: Creature = dog ? Hound(context: context) : Creature(context: context)
            animal.name = name
            animal.legs = legs
            animal.warden = warden
            if let dog = animal as? Hound { dog.breed = breed }
        }
        animal("Polly", legs: 2, warden: ann)
        animal("Rex", legs: 4, warden: ann, breed: "Collie", dog: true)
        animal("Fido", legs: 4, warden: bob, breed: nil, dog: true)
        animal("Tweety", legs: 2, warden: cho)
        animal("Kitty", legs: 4, warden: cho)
        animal("Stray", legs: 3, warden: nil)
        try context.save()
        return ann
    }

    static func wardenCases(ann: Warden) -> [TypedCase<Warden>] {
        let ages: [Int64] = [25, 41]
        let cutoff = cutoff
        let past = Date.distantPast
        let annName = ann.name
        return [
            TypedCase("age > %@", 30, predicate: #Predicate { $0.age > 30 }),
            TypedCase("age >= 30 AND rating < 4.6", predicate: #Predicate { $0.age >= 30 && $0.rating < 4.6 }),
            TypedCase("active == YES OR age == 25", predicate: #Predicate { $0.active || $0.age == 25 }),
            TypedCase("NOT active == YES", predicate: #Predicate { !$0.active }),
            TypedCase("age <= 25 OR NOT (rating > 4 AND active == YES)",
                      predicate: #Predicate { $0.age <= 25 || !($0.rating > 4 && $0.active) }),
            TypedCase("name == nil", predicate: #Predicate { $0.name == nil }),
            TypedCase("name != nil", predicate: #Predicate { $0.name != nil }),
            TypedCase("name == 'Ann'", predicate: #Predicate { $0.name == "Ann" }),
            TypedCase("name == nil OR name == ''", predicate: #Predicate { ($0.name ?? "") == "" }),
            TypedCase("name CONTAINS 'o'", predicate: #Predicate { $0.name?.contains("o") ?? false }),
            TypedCase("name == nil OR NOT name CONTAINS 'o'", predicate: #Predicate { !($0.name?.contains("o") ?? false) }),
            TypedCase("name BEGINSWITH 'B'", predicate: #Predicate { $0.name?.starts(with: "B") ?? false }),
            TypedCase("name != nil AND name != ''", predicate: #Predicate { !($0.name?.isEmpty ?? true) }),
            TypedCase("nickname_ == 'Red'", predicate: #Predicate { $0.nickname == "Red" }),
            TypedCase("hired > %@", cutoff, predicate: #Predicate { ($0.hired ?? past) > cutoff }),
            TypedCase("age IN %@", ages, predicate: #Predicate { ages.contains($0.age) }),
            TypedCase("age * 2 > 70", predicate: #Predicate { $0.age * 2 > 70 }),
            TypedCase("mentor.name == 'Ann'", predicate: #Predicate { $0.mentor?.name == "Ann" }),
            TypedCase("mentor.mentor.name == 'Ann'", predicate: #Predicate { $0.mentor?.mentor?.name == "Ann" }),
            TypedCase("mentor.age > 30", predicate: #Predicate { ($0.mentor?.age ?? 0) > 30 }),
            TypedCase("mentor == nil", predicate: #Predicate { $0.mentor == nil }),
            TypedCase("name == %@", annName, predicate: #Predicate { $0.name == annName }),
            TypedCase("ANY animals.legs == 2", predicate: #Predicate { $0.animals.contains { $0.legs == 2 } }),
            TypedCase("SUBQUERY(animals, $a, $a.legs == 2 AND $a.name BEGINSWITH 'T').@count > 0",
                      predicate: #Predicate { $0.animals.contains { $0.legs == 2 && ($0.name?.starts(with: "T") ?? false) } }),
            TypedCase("SUBQUERY(animals, $a, NOT $a.legs == 4).@count == 0",
                      predicate: #Predicate { $0.animals.allSatisfy { $0.legs == 4 } }),
            TypedCase("animals.@count == 0", predicate: #Predicate { $0.animals.isEmpty }),
            TypedCase("animals.@count >= 2", predicate: #Predicate { $0.animals.count >= 2 }),
            TypedCase("SUBQUERY(animals, $a, $a.legs == 4).@count == 1",
                      predicate: #Predicate { $0.animals.filter { $0.legs == 4 }.count == 1 }),
            TypedCase("ANY mentees.name CONTAINS 'o'",
                      predicate: #Predicate { $0.mentees.contains { $0.name?.contains("o") ?? false } }),
            TypedCase("TERNARY(active == YES, age, 0) > 30", predicate: #Predicate { ($0.active ? $0.age : 0) > 30 }),
            TypedCase("TRUEPREDICATE", predicate: #Predicate { _ in true }),
        ]
    }

    static let creatureCases: [TypedCase<Creature>] = [
        TypedCase("warden.name == 'Ann'", predicate: #Predicate { $0.warden?.name == "Ann" }),
        TypedCase("legs < 4 AND warden != nil", predicate: #Predicate { $0.legs < 4 && $0.warden != nil }),
    ]

    static let houndCases: [TypedCase<Hound>] = [
        TypedCase("name == 'Rex' AND breed == 'Collie'", predicate: #Predicate { $0.name == "Rex" && $0.breed == "Collie" }),
        TypedCase("breed == nil", predicate: #Predicate { $0.breed == nil }),
        TypedCase("warden.mentor.name == 'Ann'", predicate: #Predicate { $0.warden?.mentor?.name == "Ann" }),
    ]
}

/// `#Predicate` fetches return what the equivalent format string returns, on the in-memory and
/// the SQLite store, and what Foundation's own evaluation of the predicate accepts.
@Suite("Typed predicates")
struct TypedPredicateTests {
    /// The names (`<nil>` for none) of `objects`, sorted: what two fetches are compared by.
    static func names(_ objects: [some ManagedObject]) -> [String] {
        objects.map { ($0.value(forKey: "name") as? String) ?? "<nil>" }.sorted()
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    func check<Object: FetchableManagedObject>(_ cases: [TypedCase<Object>], in context: ManagedObjectContext) throws {
        let all = try context.fetch(FetchRequest<Object>(entityName: Object.entityName))
        for typedCase in cases {
            let expected = Self.names(try all.filter { try typedCase.predicate.evaluate($0) })
            let typed = Self.names(try Object.fetch(where: typedCase.predicate, in: context))
            let format = try ObjectPredicate(parsing: typedCase.format, arguments: typedCase.arguments)
            let formatted = Self.names(try Object.fetch(format, in: context))
            #expect(typed == expected, "\(typedCase.format): typed fetch")
            #expect(formatted == expected, "\(typedCase.format): format fetch")
            #expect(try Object.count(where: typedCase.predicate, in: context) == expected.count, "\(typedCase.format)")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)

    @Test(arguments: [StoreKind.inMemory, .sqlite])
    func typedPredicatesMatchFormatStrings(kind: StoreKind) throws {
        try withContext(ZooModel.managedObjectModel, kind: kind) { context in
            let ann = try Zoo.insert(into: context)
            context.reset()
            let cases = Zoo.wardenCases(ann: ann)
            try check(cases, in: context)
            try check(Zoo.creatureCases, in: context)
            try check(Zoo.houndCases, in: context)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)

    @Test func unsavedChangesCount() throws {
        try withContext(ZooModel.managedObjectModel, kind: .sqlite) { context in
            try Zoo.insert(into: context)
            let newcomer = Warden(context: context)
            newcomer.name = "Dee"
            newcomer.age = 44
            let found = try Warden.fetch(where: #Predicate { $0.age > 40 }, in: context)
            #expect(Self.names(found) == ["<nil>", "Ann", "Dee"])
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)

    @Test func translationIsTheFormatSyntax() throws {
        let predicate = try ObjectPredicate(#Predicate<Warden> { $0.age > 30 && ($0.mentor?.name?.contains("A") ?? false) })
        // The `?.` chain is one optional (`mentor.name`) under `??`: nil, then false.
        #expect(predicate.predicateFormat == #"age > 30 AND mentor.name != nil AND mentor.name CONTAINS "A""#)
        let any = try ObjectPredicate(#Predicate<Warden> { $0.animals.contains { $0.legs == 2 } })
        #expect(any.predicateFormat == "ANY animals.legs == 2")
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)

    @Test func untranslatableExpressionThrowsAtFetchNamingIt() throws {
        try withContext(ZooModel.managedObjectModel) { context in
            try Zoo.insert(into: context)
            let request = FetchRequest<Warden>(predicate: #Predicate { $0.age % 2 == 0 })
            let error = #expect(throws: ManagedObjectError.self) { try context.fetch(request) }
            #expect(error?.code == .invalidFetchRequest)
            #expect(error?.description.contains("#Predicate<Warden>: IntRemainder") == true, "\(String(describing: error))")
            // Setting a predicate replaces the one that could not be translated.
            request.predicate = ObjectPredicate("age > 40")
            #expect(Self.names(try context.fetch(request)) == ["<nil>", "Ann"])
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)

    @Test func keyPathThatIsNotStoredThrowsNamingIt() throws {
        try withContext(ZooModel.managedObjectModel) { context in
            let error = #expect(throws: ManagedObjectError.self) {
                try Warden.fetch(where: #Predicate { $0.objectID == $0.objectID }, in: context)
            }
            // Linux names a computed key path by its type only: `\Warden.<computed … (ManagedObjectID)>`.
            #expect(error?.description.contains("(ManagedObjectID)>, which is not a stored property") == true, "\(String(describing: error))")
        }
    }
}

@Suite("Typed sort descriptors")
struct TypedSortDescriptorTests {
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test(arguments: [StoreKind.inMemory, .sqlite])
    func sortDescriptorsMatchKeySorts(kind: StoreKind) throws {
        try withContext(ZooModel.managedObjectModel, kind: kind) { context in
            try Zoo.insert(into: context)
            let typed = try Warden.fetch(sortedBy: [SortDescriptor(\Warden.nickname), SortDescriptor(\Warden.age, order: .reverse)], in: context)
            let keyed = try Warden.fetch(
                sortedBy: [ObjectSortDescriptor(key: "nickname_"), ObjectSortDescriptor(key: "age", ascending: false)], in: context)
            // nil nicknames first (58, 25), then "" (19), "Blue" (33), "Red" (41).
            #expect(typed.map(\.age) == [58, 25, 19, 33, 41])
            #expect(keyed.map(\.age) == typed.map(\.age))
            let dogs = try Hound.fetch(where: #Predicate { $0.legs == 4 }, sortedBy: [SortDescriptor(\Hound.legs), SortDescriptor(\Hound.name, order: .reverse)], in: context)
            #expect(dogs.map(\.name) == ["Rex", "Fido"])
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)

    @Test func descriptorTranslation() throws {
        let descriptor = try ObjectSortDescriptor(SortDescriptor(\Warden.nickname, order: .reverse))
        #expect(descriptor == ObjectSortDescriptor(key: "nickname_", ascending: false, comparison: .compare))
        #expect(throws: ManagedObjectError.self) { try ObjectSortDescriptor(SortDescriptor(\Warden.name.debugDescription)) }
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)

    @Test func firstWhere() throws {
        try withContext(ZooModel.managedObjectModel) { context in
            try Zoo.insert(into: context)
            let oldestActive = try Warden.first(where: #Predicate { $0.active }, sortedBy: [SortDescriptor(\.age, order: .reverse)], in: context)
            #expect(oldestActive?.name == "Ann")
            #expect(try Warden.first(where: #Predicate { $0.age > 100 }, in: context) == nil)
        }
    }
}

private final class InsertCounter: FetchedResultsControllerDelegate {
    var inserts = 0
    func controller(_ controller: AnyObject, didChange object: ManagedObject, at indexPath: IndexPath?,
                    for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
        if type == .insert { inserts += 1 }
    }
}

@Suite("Typed queries in requests")
struct TypedRequestTests {
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func templateNarrowedAndSortedTyped() throws {
        try withContext(ZooModel.managedObjectModel, kind: .sqlite) { context in
            try Zoo.insert(into: context)
            // As a model's fetch-request template is filled in, then narrowed in Swift.
            let request = FetchRequest<Warden>(entityName: "Warden", predicate: ObjectPredicate("age > $AGE").withSubstitutionVariables(["AGE": 20]))
            request.filter(#Predicate { $0.active })
            request.sort(by: [SortDescriptor(\.rating, order: .reverse)])
            #expect(try context.fetch(request).map(\.name) == ["Ann", "Chong"])
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)

    @Test func fetchedResultsControllerTakesATypedRequest() throws {
        try withContext(ZooModel.managedObjectModel) { context in
            try Zoo.insert(into: context)
            let request = FetchRequest<Warden>(predicate: #Predicate { $0.mentor != nil }, sortBy: [SortDescriptor(\.age)])
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context)
            let delegate = InsertCounter()
            controller.delegate = delegate   // as in Core Data, changes are followed for a delegate
            try controller.performFetch()
            #expect(controller.fetchedObjects?.map(\.age) == [25, 33, 58])
            let dee = Warden(context: context)
            dee.age = 30
            dee.mentor = controller.fetchedObjects?.first
            context.processPendingChanges()
            #expect(controller.fetchedObjects?.map(\.age) == [25, 30, 33, 58])
            #expect(delegate.inserts == 1)
        }
    }
}
