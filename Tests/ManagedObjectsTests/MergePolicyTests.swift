import Foundation
import Testing
@testable import ManagedObjects

@Suite("Merge policies")
struct MergePolicyTests {
    /// What the stored tweet holds after the conflict, per policy: `text` changed by both
    /// contexts, `unique` only by the saving context, `created` only by the other one.
    struct Outcome: Equatable, CustomStringConvertible {
        var text: String?
        var unique: String?
        var created: Date?
        var description: String { "text \(text ?? "nil"), unique \(unique ?? "nil"), created \(created.map { "\($0.timeIntervalSinceReferenceDate)" } ?? "nil")" }
    }

    static let before = Date(timeIntervalSinceReferenceDate: 0)
    static let after = Date(timeIntervalSinceReferenceDate: 86_400)

    static let expected: [(MergePolicy, Outcome)] = [
        (.mergeByPropertyStoreTrump, Outcome(text: "other", unique: "mine", created: after)),
        (.mergeByPropertyObjectTrump, Outcome(text: "mine", unique: "mine", created: after)),
        (.overwrite, Outcome(text: "mine", unique: "mine", created: before)),
        (.rollback, Outcome(text: "other", unique: "original", created: after)),
    ]

    /// Saves a tweet, changes it in `other` and saves, then changes it in `mine` (which read it
    /// before) and saves under `policy`. Returns the stored tweet and what `mine` holds.
    func conflict(
        policy: MergePolicy, kind: StoreKind, files: TemporaryDirectory
    ) throws -> (stored: Outcome, inContext: Outcome, mineHasChanges: Bool) {
        let container = try makeContainer(TwitterModel.managedObjectModel, kind: kind, files: files)
        let mine = container.newBackgroundContext()
        let other = container.newBackgroundContext()
        return try mine.performAndWait {
            mine.mergePolicy = policy
            let tweet = Tweet(context: mine)
            tweet.text = "original"
            tweet.unique = "original"
            tweet.created = Self.before
            try mine.save()
            try other.performAndWait {
                let theirs = try #require(try other.existingObject(with: tweet.objectID) as? Tweet)
                theirs.text = "other"
                theirs.created = Self.after
                try other.save()
            }
            tweet.text = "mine"
            tweet.unique = "mine"
            try mine.save()
            let reader = container.newBackgroundContext()
            let stored = try reader.performAndWait {
                let saved = try #require(try reader.existingObject(with: tweet.objectID) as? Tweet)
                return Outcome(text: saved.text, unique: saved.unique, created: saved.created)
            }
            return (stored, Outcome(text: tweet.text, unique: tweet.unique, created: tweet.created), mine.hasChanges)
        }
    }

    @Test("each policy resolves the same object conflict as Core Data documents",
          arguments: StoreKind.allCases, expected.map(\.0))
    func objectConflict(kind: StoreKind, policy: MergePolicy) throws {
        let files = try TemporaryDirectory()
        let outcome = try #require(Self.expected.first { $0.0 == policy }?.1)
        let result = try conflict(policy: policy, kind: kind, files: files)
        #expect(result.stored == outcome)
        #expect(result.inContext == outcome)
        #expect(!result.mineHasChanges)
    }

    @Test("the error policy throws 133020 with a MergeConflict", arguments: StoreKind.allCases)
    func errorPolicy(kind: StoreKind) throws {
        let files = try TemporaryDirectory()
        let error = try #require(throws: ManagedObjectError.self) {
            try conflict(policy: .error, kind: kind, files: files)
        }
        #expect(error.code == .mergeConflict)
        #expect(error.code.rawValue == 133020)
        let mergeConflict = try #require(error.mergeConflicts.first)
        #expect(error.mergeConflicts.count == 1 && error.conflictList.count == 1)
        #expect(mergeConflict.oldVersionNumber == 1 && mergeConflict.newVersionNumber == 2)
        #expect(mergeConflict.objectSnapshot?["text"] as? String == "mine")
        #expect(mergeConflict.cachedSnapshot?["text"] as? String == "original")
        #expect(mergeConflict.persistedSnapshot?["text"] as? String == "other")
        #expect(mergeConflict.sourceObject.hasChanges)
    }

    @Test("every conflicting object is in the conflict list (SQLite reports the first only)", arguments: StoreKind.allCases)
    func everyConflictListed(kind: StoreKind) throws {
        let files = try TemporaryDirectory()
        let container = try makeContainer(TwitterModel.managedObjectModel, kind: kind, files: files)
        let mine = container.newBackgroundContext()
        let other = container.newBackgroundContext()
        try mine.performAndWait {
            let tweets = (0..<3).map { number in
                let tweet = Tweet(context: mine)
                tweet.text = "tweet \(number)"
                return tweet
            }
            try mine.save()
            try other.performAndWait {
                for tweet in tweets.prefix(2) {
                    (try other.existingObject(with: tweet.objectID) as? Tweet)?.text = "theirs"
                }
                try other.save()
            }
            for tweet in tweets { tweet.text = "mine" }
            let error = try #require(throws: ManagedObjectError.self) { try mine.save() }
            #expect(Set(error.mergeConflicts.map(\.sourceObject.objectID)) == Set(tweets.prefix(2).map(\.objectID)))
            #expect(mine.updatedObjects.count == 3)
            mine.mergePolicy = .mergeByPropertyObjectTrump
            try mine.save()
            #expect(!mine.hasChanges)
            let reader = container.newBackgroundContext()
            let texts = try reader.performAndWait { try reader.fetch(Tweet.fetchRequest()).compactMap(\.text) }
            #expect(texts == ["mine", "mine", "mine"])
        }
    }

    @Test("an object another context deleted: 133020 with no persisted snapshot; a merge policy lets it go",
          arguments: StoreKind.allCases)
    func deletedInStore(kind: StoreKind) throws {
        let files = try TemporaryDirectory()
        let container = try makeContainer(TwitterModel.managedObjectModel, kind: kind, files: files)
        let mine = container.newBackgroundContext()
        let other = container.newBackgroundContext()
        try mine.performAndWait {
            let tweet = Tweet(context: mine)
            tweet.text = "original"
            try mine.save()
            try other.performAndWait {
                other.delete(try other.existingObject(with: tweet.objectID))
                try other.save()
            }
            tweet.text = "mine"
            let error = try #require(throws: ManagedObjectError.self) { try mine.save() }
            #expect(error.code == .mergeConflict && error.mergeConflicts.first?.persistedSnapshot == nil)
            mine.mergePolicy = .mergeByPropertyObjectTrump
            try mine.save()
            #expect(!mine.hasChanges && tweet.managedObjectContext == nil)
            #expect(try mine.count(for: Tweet.fetchRequest()) == 0)
        }
    }

    /// A stored airport KSFO, and a context inserting another KSFO (with a flight from it).
    func duplicateAirport(
        policy: MergePolicy, kind: StoreKind, files: TemporaryDirectory
    ) throws -> (stored: [String], storedID: ManagedObjectID, flightOrigin: ManagedObjectID?, duplicateLeft: Bool) {
        let container = try makeContainer(EnrouteModel.managedObjectModel, kind: kind, files: files)
        let setup = container.newBackgroundContext()
        let storedID = try setup.performAndWait {
            let airport = Airport(context: setup)
            airport.icao_ = "KSFO"
            airport.name_ = "San Francisco"
            airport.city_ = "San Francisco"
            try setup.save()
            return airport.objectID
        }
        let importer = container.newBackgroundContext()
        let (flightOrigin, duplicateLeft) = try importer.performAndWait {
            importer.mergePolicy = policy
            let duplicate = Airport(context: importer)
            duplicate.icao_ = "KSFO"
            duplicate.name_ = "San Francisco International"
            let flight = Flight(context: importer)
            flight.ident_ = "UA1"
            flight.origin_ = duplicate
            try importer.save()
            return (flight.origin_?.objectID, duplicate.managedObjectContext == nil)
        }
        let reader = container.newBackgroundContext()
        let stored = try reader.performAndWait {
            try reader.fetch(Airport.fetchRequest()).map {
                "\($0.icao_ ?? "") \($0.name_ ?? "") \($0.city_ ?? "") \($0.flightsFrom_.compactMap(\.ident_).sorted())"
            }
        }
        return (stored, storedID, flightOrigin, duplicateLeft)
    }

    @Test("constraint upsert: with object trump the stored object takes the duplicate's values", arguments: StoreKind.allCases)
    func upsert(kind: StoreKind) throws {
        let files = try TemporaryDirectory()
        let result = try duplicateAirport(policy: .mergeByPropertyObjectTrump, kind: kind, files: files)
        // The name is the new one, the city (which the duplicate left nil) the stored one.
        #expect(result.stored == [#"KSFO San Francisco International San Francisco ["UA1"]"#])
        #expect(result.flightOrigin == result.storedID)
        #expect(result.duplicateLeft)
    }

    @Test("constraint conflict under overwrite copies every property, nil ones too", arguments: StoreKind.allCases)
    func overwriteConstraint(kind: StoreKind) throws {
        let files = try TemporaryDirectory()
        let result = try duplicateAirport(policy: .overwrite, kind: kind, files: files)
        #expect(result.stored == [#"KSFO San Francisco International  ["UA1"]"#])
        #expect(result.flightOrigin == result.storedID)
    }

    @Test("constraint conflict under store trump and rollback keeps the stored object and drops the duplicate",
          arguments: StoreKind.allCases, [MergePolicy.mergeByPropertyStoreTrump, .rollback])
    func storeTrumpConstraint(kind: StoreKind, policy: MergePolicy) throws {
        let files = try TemporaryDirectory()
        let result = try duplicateAirport(policy: policy, kind: kind, files: files)
        #expect(result.stored == [#"KSFO San Francisco San Francisco []"#])
        #expect(result.duplicateLeft)
    }

    @Test("constraint conflict under the error policy throws 133021 with a ConstraintConflict", arguments: StoreKind.allCases)
    func constraintError(kind: StoreKind) throws {
        let files = try TemporaryDirectory()
        let error = try #require(throws: ManagedObjectError.self) {
            try duplicateAirport(policy: .error, kind: kind, files: files)
        }
        #expect(error.code == .constraintConflict && error.code.rawValue == 133021)
        let conflict = try #require(error.constraintConflicts.first)
        #expect(error.conflictList.count == 1)
        #expect(conflict.constraint == ["icao_"])
        #expect(conflict.constraintValues["icao_"] as? String == "KSFO")
        #expect(conflict.databaseSnapshot?["name_"] as? String == "San Francisco")
        #expect(conflict.databaseObject != nil)
        #expect(conflict.conflictingObjects.map { $0.value(forKey: "name_") as? String } == ["San Francisco International"])
    }

    @Test("two new duplicates in one save: object trump keeps one, with the later values", arguments: StoreKind.allCases)
    func duplicatesInOneSave(kind: StoreKind) throws {
        let files = try TemporaryDirectory()
        let container = try makeContainer(EnrouteModel.managedObjectModel, kind: kind, files: files)
        let context = container.newBackgroundContext()
        let names = try context.performAndWait {
            context.mergePolicy = .mergeByPropertyObjectTrump
            let airlines = ["first", "second"].map { name in
                let airline = Airline(context: context)
                airline.code_ = "UA"
                airline.name_ = name
                return airline
            }
            try context.save()
            // The save retried after resolving the conflict; no object keeps a number it was given.
            #expect(airlines.allSatisfy { context.placeAmongNewObjects(of: $0) == nil })
            return try context.fetch(Airline.fetchRequest()).compactMap(\.name_)
        }
        #expect(names == ["second"])
    }

    /// A saved tweet that `mine` deletes after another context changed it.
    func deleteOfAChangedTweet(policy: MergePolicy, kind: StoreKind, files: TemporaryDirectory) throws -> (stored: String?, tweet: Tweet, context: ManagedObjectContext) {
        let container = try makeContainer(TwitterModel.managedObjectModel, kind: kind, files: files)
        let mine = container.newBackgroundContext()
        let other = container.newBackgroundContext()
        return try mine.performAndWait {
            mine.mergePolicy = policy
            let tweet = Tweet(context: mine)
            tweet.text = "original"
            try mine.save()
            try other.performAndWait {
                (try other.existingObject(with: tweet.objectID) as? Tweet)?.text = "theirs"
                try other.save()
            }
            mine.delete(tweet)
            try mine.save()
            let reader = container.newBackgroundContext()
            let stored = try reader.performAndWait { try reader.fetch(Tweet.fetchRequest()).first?.text }
            return (stored, tweet, mine)
        }
    }

    @Test("rollback discards a delete in conflict: the object stays, with the stored values", arguments: StoreKind.allCases)
    func rollbackDiscardsDelete(kind: StoreKind) throws {
        let files = try TemporaryDirectory()
        let result = try deleteOfAChangedTweet(policy: .rollback, kind: kind, files: files)
        #expect(result.stored == "theirs")
        result.context.performAndWait {
            #expect(!result.tweet.isDeleted && result.tweet.managedObjectContext === result.context)
            #expect(result.tweet.text == "theirs" && !result.context.hasChanges)
        }
    }

    @Test("every other policy lets a delete in conflict go through",
          arguments: StoreKind.allCases, [MergePolicy.mergeByPropertyStoreTrump, .mergeByPropertyObjectTrump, .overwrite])
    func deleteGoesThrough(kind: StoreKind, policy: MergePolicy) throws {
        let files = try TemporaryDirectory()
        let result = try deleteOfAChangedTweet(policy: policy, kind: kind, files: files)
        #expect(result.stored == nil)
        result.context.performAndWait { #expect(result.tweet.managedObjectContext == nil) }
    }

    @Test("rollback discards changes and deletes of the objects in conflict only; the rest is saved",
          arguments: StoreKind.allCases)
    func rollbackKeepsTheRest(kind: StoreKind) throws {
        let files = try TemporaryDirectory()
        let container = try makeContainer(TwitterModel.managedObjectModel, kind: kind, files: files)
        let mine = container.newBackgroundContext()
        let other = container.newBackgroundContext()
        try mine.performAndWait {
            mine.mergePolicy = .rollback
            let tweets = (0..<4).map { number in
                let tweet = Tweet(context: mine)
                tweet.unique = "\(number)"
                tweet.text = "original"
                return tweet
            }
            try mine.save()
            try other.performAndWait {
                for tweet in tweets.prefix(2) { (try other.existingObject(with: tweet.objectID) as? Tweet)?.text = "theirs" }
                try other.save()
            }
            tweets[0].text = "mine"         // in conflict: rolled back
            mine.delete(tweets[1])          // in conflict: rolled back
            tweets[2].text = "mine"         // no conflict: saved
            mine.delete(tweets[3])          // no conflict: deleted
            try mine.save()
            #expect(!mine.hasChanges)
            #expect(tweets[0].text == "theirs" && tweets[1].text == "theirs" && !tweets[1].isDeleted)
            let reader = container.newBackgroundContext()
            let stored = try reader.performAndWait {
                try reader.fetch(Tweet.fetchRequest()).map { "\($0.unique ?? "") \($0.text ?? "")" }.sorted()
            }
            #expect(stored == ["0 theirs", "1 theirs", "2 mine"])
        }
    }

    @Test("a conflict error is an NSError with its conflicts under conflictList", arguments: StoreKind.allCases)
    func conflictErrorAsNSError(kind: StoreKind) throws {
        let files = try TemporaryDirectory()
        do {
            _ = try conflict(policy: .error, kind: kind, files: files)
            Issue.record("saved over another context's save under the error policy")
        } catch let error as NSError {
            #expect(error.domain == "NSCocoaErrorDomain" && error.code == 133020)
            let conflicts = try #require(error.userInfo["conflictList"] as? [MergeConflict])
            #expect(conflicts.count == 1)
            #expect(conflicts.first?.objectSnapshot?["text"] as? String == "mine")
            #expect(conflicts.first?.persistedSnapshot?["text"] as? String == "other")
            // The cast back gives the error whole.
            let original = try #require(error as Error as? ManagedObjectError)
            #expect(original.mergeConflicts.count == 1)
        }
        let airportFiles = try TemporaryDirectory()
        let constraint = try #require(throws: ManagedObjectError.self) {
            try duplicateAirport(policy: .error, kind: kind, files: airportFiles)
        }
        let info = (constraint as NSError).userInfo
        #expect((info["conflictList"] as? [ConstraintConflict])?.first?.constraint == ["icao_"])
    }
}
