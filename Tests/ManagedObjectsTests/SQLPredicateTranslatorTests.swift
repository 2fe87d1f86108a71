import Foundation
import GRDB
@testable import ManagedObjects
import Testing

@Suite("SQLite store: predicates, sorts and windows as SQL with bound parameters")
struct SQLPredicateTranslatorTests {
    let model = TwitterModel.managedObjectModel

    /// Texts that compare differently bytewise, by UTF-16, folded and by Unicode equivalence,
    /// plus SQL and LIKE metacharacters.
    static let words = [
        "alpha", "Alpha", "ÄLPHA", "beta", "Beta", "é", "e\u{301}", "E", "Zeta", "", "a%b", "a_b", "it's", "zz", "item 10", "item 9",
    ]

    /// A dataset of users and tweets with nil values everywhere a value can be nil; every tweet
    /// saved on its own, so store order is the same in every store.
    func populate(_ context: ManagedObjectContext) throws {
        var random = SeededGenerator(seed: 10)
        var users: [ManagedObject] = []
        for index in 0..<8 {
            let user = ManagedObject(entity: model["TwitterUser"]!, insertInto: context)
            user.setValue(index == 3 ? nil : Self.words.randomElement(using: &random), forKey: "name")
            user.setValue(index == 5 ? nil : "user\(index % 4)", forKey: "screenName")
            users.append(user)
        }
        try context.save()
        for index in 0..<120 {
            let tweet = ManagedObject(entity: model["Tweet"]!, insertInto: context)
            tweet.setValue(String(format: "t%03d", index), forKey: "unique")
            tweet.setValue(index % 11 == 0 ? nil : Self.words.randomElement(using: &random), forKey: "text")
            tweet.setValue(
                index % 7 == 0 ? nil : Date(timeIntervalSinceReferenceDate: Double(Int.random(in: 0..<20, using: &random)) * 100),
                forKey: "created")
            tweet.setValue(index % 9 == 0 ? nil : users.randomElement(using: &random), forKey: "tweeter")
            try context.save()
        }
        context.reset()
    }

    func sqliteStore(_ container: PersistentContainer) throws -> SQLiteStore {
        try #require(container.persistentStoreCoordinator.persistentStores.first as? SQLiteStore)
    }

    @Test("no argument value is SQL text, and the fetch still answers right")
    func argumentsAreBound() throws {
        let hostile = ["it's", "'; DROP TABLE ZTWEET; --", "100%", "a_b", "a%b", "x\"y"]
        let formats = [
            "text == %@", "text !=[c] %@", "text < %@", "text BEGINSWITH %@", "text ENDSWITH[c] %@", "text CONTAINS %@",
            "text LIKE %@", "tweeter.name ==[cd] %@", "%@ > text", "text MATCHES %@", "text CONTAINS[c] %@",
        ]
        var answers: [StoreKind: [[String]]] = [:]
        for kind in StoreKind.allCases {
            let files = try TemporaryDirectory()
            let container = try makeContainer(model, kind: kind, files: files)
            let context = container.newBackgroundContext()
            let store = kind == .sqlite ? try sqliteStore(container) : nil
            answers[kind] = try context.performAndWait {
                try populate(context)
                var results: [[String]] = []
                for format in formats {
                    for value in hostile {
                        let argument = format.contains("MATCHES") ? NSRegularExpression.escapedPattern(for: value) : value
                        let predicate = try ObjectPredicate(parsing: format, arguments: [argument])
                        if let store {
                            let plan = store.fetchPlan(for: StoreRequest(entity: model["Tweet"]!, predicate: predicate))
                            #expect(plan.rest.predicate == nil, "\(format) is SQL")
                            #expect(!plan.statement.contains(argument), "\(format) binds \(argument)")
                            #expect(plan.arguments.contains(.text(argument)))
                        }
                        let request = FetchRequest<ManagedObject>(
                            entityName: "Tweet", predicate: predicate, sortDescriptors: [ObjectSortDescriptor(key: "unique")])
                        results.append(try context.fetch(request).map { $0.value(forKey: "unique") as! String })
                    }
                }
                // A key path is never SQL text either: only the schema's column names are.
                let hostileKey = "text = text OR 1; DROP TABLE ZTWEET; --"
                let keyed = try ObjectPredicate(parsing: "%K == %@", arguments: [hostileKey, "alpha"])
                if let store {
                    let plan = store.fetchPlan(for: StoreRequest(entity: model["Tweet"]!, predicate: keyed))
                    #expect(!plan.statement.contains(hostileKey) && plan.rest.predicate != nil)
                }
                // (and a fetch refuses an unknown key before any store sees it).
                #expect(throws: ManagedObjectError.self) { try context.fetch(FetchRequest<ManagedObject>(entityName: "Tweet", predicate: keyed)) }
                // The table survived.
                results.append(["\(try context.count(for: FetchRequest<ManagedObject>(entityName: "Tweet")))"])
                return results
            }
        }
        #expect(answers[.sqlite] == answers[.inMemory])
        #expect(answers[.sqlite]?.last == ["120"])
        #expect(answers[.sqlite]?.contains { !$0.isEmpty } == true)
    }

    @Test("a translated fetch reads only its window of matching rows, in order, from SQL")
    func translatedFetchIsSQL() throws {
        let files = try TemporaryDirectory()
        let container = try makeContainer(model, kind: .sqlite, files: files)
        let store = try sqliteStore(container)
        let tweet = model["Tweet"]!
        let request = StoreRequest(
            entity: tweet, predicate: try ObjectPredicate(parsing: "text BEGINSWITH[c] %@ AND created > %@ OR tweeter.name == nil", arguments: ["a", Date()]),
            sortDescriptors: [ObjectSortDescriptor(key: "tweeter.name", ascending: false), ObjectSortDescriptor(key: "created")],
            fetchOffset: 2, fetchLimit: 5)
        let plan = store.fetchPlan(for: request)
        #expect(plan.statement.contains("FROM ZTWEET t0 WHERE ((MO_STRING_MATCH(1, 1, t0.ZTEXT, ?) AND t0.ZCREATED > ?) OR"))
        #expect(plan.statement.contains("ORDER BY (SELECT r1.ZNAME FROM ZTWITTERUSER r1 WHERE r1.Z_PK = t0.ZTWEETER) COLLATE MO_SORT_COMPARE DESC, t0.ZCREATED ASC, t0.Z_PK LIMIT ? OFFSET ?"))
        #expect(plan.rest.predicate == nil && plan.rest.sortDescriptors.isEmpty && plan.rest.fetchLimit == 0 && plan.rest.fetchOffset == 0)
        var count = request
        count.resultType = .count
        #expect(store.fetchPlan(for: count).countStatement?.hasPrefix("SELECT COUNT(*) FROM ZTWEET t0 WHERE") == true)

        // What SQL cannot answer exactly is left to memory, window included.
        let untranslated = StoreRequest(
            entity: tweet, predicate: try ObjectPredicate(parsing: "tweeter.tweets.@count > 2"),
            sortDescriptors: [ObjectSortDescriptor(key: "tweeter")], fetchLimit: 3)
        let fallback = store.fetchPlan(for: untranslated)
        #expect(fallback.rest.predicate != nil && fallback.rest.sortDescriptors.count == 1 && fallback.rest.fetchLimit == 3)
        #expect(!fallback.statement.contains("LIMIT"))
    }

    @Test("random predicates, sorts and windows answer on SQLite as in memory", arguments: [1, 2, 3] as [UInt64])
    func differential(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let date = { Date(timeIntervalSinceReferenceDate: Double(Int.random(in: 0..<20, using: &random)) * 100) }
        let word = { Self.words.randomElement(using: &random)! }
        let atoms: [() -> (String, [Any])] = [
            { ("text == %@", [word()]) }, { ("text != %@", [word()]) }, { ("text <[c] %@", [word()]) },
            { ("text >=[cd] %@", [word()]) }, { ("text BEGINSWITH[cd] %@", [String(word().prefix(1))]) },
            { ("text ENDSWITH %@", [String(word().suffix(1))]) }, { ("text CONTAINS[c] %@", [String(word().prefix(2))]) },
            { ("text LIKE[c] %@", ["*a*"]) }, { ("text LIKE %@", ["?eta"]) }, { ("text MATCHES[c] %@", ["[a-e].*"]) },
            { ("text IN %@", [[word(), word()]]) }, { ("text BETWEEN %@", [[word(), word()]]) }, { ("%@ < text", [word()]) },
            { ("text == nil", []) }, { ("text != nil", []) }, { ("created > %@", [date()]) }, { ("created <= %@", [date()]) },
            { ("created != %@", [date()]) }, { ("created == nil", []) }, { ("created BETWEEN %@", [[date(), date()]]) },
            { ("created IN %@", [[date(), date()]]) }, { ("created < %@", [Int.random(in: 0..<2000, using: &random)]) },
            { ("tweeter.name ==[cd] %@", [word()]) }, { ("tweeter.name < %@", [word()]) }, { ("tweeter.screenName == nil", []) },
            { ("tweeter.screenName != %@", ["user1"]) }, { ("tweeter == nil", []) }, { ("TRUEPREDICATE", []) }, { ("FALSEPREDICATE", []) },
            { ("tweeter.tweets.@count > %@", [Int.random(in: 0..<20, using: &random)]) }, { ("ANY tweeter.tweets.text == %@", [word()]) },
            { ("text == 5", []) }, { ("created == %@", ["x"]) },
        ]
        func predicate(depth: Int) -> (String, [Any]) {
            let choice = Int.random(in: 0..<(depth > 1 ? 1 : 4), using: &random)
            switch choice {
            case 1, 2:
                let (left, leftArguments) = predicate(depth: depth + 1)
                let (right, rightArguments) = predicate(depth: depth + 1)
                return ("(\(left)) \(choice == 1 ? "AND" : "OR") (\(right))", leftArguments + rightArguments)
            case 3:
                let (operand, arguments) = predicate(depth: depth + 1)
                return ("NOT (\(operand))", arguments)
            default:
                return atoms.randomElement(using: &random)!()
            }
        }
        let sortKeys = ["text", "created", "unique", "tweeter.name", "tweeter.screenName", "tweeter"]
        let comparisons: [ObjectSortDescriptor.Comparison] = [.compare, .compare, .caseInsensitive, .localizedStandard, .localized, .localizedCaseInsensitive]
        var requests: [ManagedObjects.FetchRequest<ManagedObject>] = []
        for _ in 0..<60 {
            let (format, arguments) = predicate(depth: 0)
            let sorts = (0..<Int.random(in: 0...2, using: &random)).map { _ in
                ObjectSortDescriptor(
                    key: sortKeys.randomElement(using: &random)!, ascending: Bool.random(using: &random),
                    comparison: comparisons.randomElement(using: &random)!)
            }
            let request = FetchRequest<ManagedObject>(
                entityName: "Tweet", predicate: try ObjectPredicate(parsing: format, arguments: arguments), sortDescriptors: sorts)
            request.fetchOffset = Bool.random(using: &random) ? Int.random(in: 0..<10, using: &random) : 0
            request.fetchLimit = Bool.random(using: &random) ? Int.random(in: 0..<10, using: &random) : 0
            requests.append(request)
        }
        var answers: [StoreKind: [[String]]] = [:]
        for kind in StoreKind.allCases {
            let files = try TemporaryDirectory()
            let container = try makeContainer(model, kind: kind, files: files)
            let context = container.newBackgroundContext()
            answers[kind] = try context.performAndWait {
                try populate(context)
                return try requests.map { request in
                    try context.fetch(request).map { $0.value(forKey: "unique") as! String } + ["count \(try context.count(for: request))"]
                }
            }
        }
        for (index, request) in requests.enumerated() {
            #expect(answers[.sqlite]?[index] == answers[.inMemory]?[index], "\(request.predicate!) sorted by \(request.sortDescriptors)")
        }
        #expect(answers[.inMemory]?.contains { $0.count > 3 } == true)
    }

    @Test("to-many counts and ANY, NONE, ALL answer as in memory, through the inverse key and a join table")
    func toManys() throws {
        let library = LibraryModel.managedObjectModel
        let userPredicates: [(String, [Any])] = [
            ("tweets.@count > %d", [14]), ("tweets.@count == 0", []), ("ANY tweets.text ==[c] %@", ["alpha"]),
            ("NONE tweets.text BEGINSWITH %@", ["a"]), ("ALL tweets.text != %@", ["beta"]), ("tweets.text CONTAINS[cd] %@", ["e"]),
            ("ALL tweets.created > %@", [Date(timeIntervalSinceReferenceDate: 300)]), ("ANY tweets.text == nil", []),
            ("NOT (ANY tweets.text LIKE %@) AND name != nil", ["*a*"]), ("ANY tweets.created BETWEEN %@", [[Date(timeIntervalSinceReferenceDate: 0), Date(timeIntervalSinceReferenceDate: 500)]]),
        ]
        let libraryPredicates: [(String, String, [Any])] = [
            ("Author", "books.@count >= 2", []), ("Author", "ANY books.pages > %d", [300]), ("Author", "NONE books.title BEGINSWITH %@", ["B"]),
            ("Author", "ALL books.pages < %d", [400]), ("Book", "authors.@count == 1", []), ("Book", "ANY authors.name ==[c] %@", ["ann"]),
            ("Author", "books.pages == nil", []),
        ]
        var answers: [StoreKind: [[String]]] = [:]
        for kind in StoreKind.allCases {
            let files = try TemporaryDirectory()
            let twitter = try makeContainer(model, kind: kind, files: files, name: "Twitter")
            let books = try makeContainer(library, kind: kind, files: files, name: "Library")
            let twitterStore = kind == .sqlite ? try sqliteStore(twitter) : nil
            let libraryStore = kind == .sqlite ? try sqliteStore(books) : nil
            var results: [[String]] = []
            let context = twitter.newBackgroundContext()
            results += try context.performAndWait {
                try populate(context)
                return try userPredicates.map { format, arguments in
                    let predicate = try ObjectPredicate(parsing: format, arguments: arguments)
                    if let twitterStore {
                        #expect(twitterStore.fetchPlan(for: StoreRequest(entity: model["TwitterUser"]!, predicate: predicate)).rest.predicate == nil, "\(format)")
                    }
                    let request = FetchRequest<ManagedObject>(entityName: "TwitterUser", predicate: predicate)
                    return try context.fetch(request).map { "\($0.value(forKey: "screenName") ?? "-") \($0.value(forKey: "name") ?? "-")" }
                }
            }
            let libraryContext = books.newBackgroundContext()
            results += try libraryContext.performAndWait {
                let authors = ["Ann", "Bob", "Cy", "Dee"].map { name in
                    let author = ManagedObject(entity: library["Author"]!, insertInto: libraryContext)
                    author.setValue(name, forKey: "name")
                    return author
                }
                for (index, title) in ["Alpha", "Beta", "Gamma", "Delta", "Bravo"].enumerated() {
                    let book = ManagedObject(entity: library["Book"]!, insertInto: libraryContext)
                    book.setValue(title, forKey: "title")
                    book.setValue(index == 2 ? nil : NSNumber(value: 100 * (index + 1)), forKey: "pages")
                    book.setValue(Set(authors.enumerated().filter { ($0.offset + index) % 3 == 0 }.map(\.element)), forKey: "authors")
                    try libraryContext.save()
                }
                libraryContext.reset()
                return try libraryPredicates.map { entity, format, arguments in
                    let predicate = try ObjectPredicate(parsing: format, arguments: arguments)
                    if let libraryStore {
                        #expect(libraryStore.fetchPlan(for: StoreRequest(entity: library[entity]!, predicate: predicate)).rest.predicate == nil, "\(format)")
                    }
                    let request = FetchRequest<ManagedObject>(
                        entityName: entity, predicate: predicate, sortDescriptors: [ObjectSortDescriptor(key: entity == "Book" ? "title" : "name")])
                    return try libraryContext.fetch(request).map { "\($0.value(forKey: entity == "Book" ? "title" : "name") ?? "-")" }
                }
            }
            answers[kind] = results
        }
        #expect(answers[.sqlite] == answers[.inMemory])
        #expect(answers[.inMemory]?.contains { !$0.isEmpty } == true)
    }

    @Test("numbers, Booleans and dates answer as the in-memory store does, nil values included")
    func numbersBooleansAndDates() throws {
        let model = GalleryModel.managedObjectModel
        var answers: [StoreKind: [[String]]] = [:]
        let predicates = [
            "int64 > 5", "int64 != 5", "int64 == nil", "int64 != nil", "NOT (int64 < 5)", "int64 >= 5 AND flag == YES",
            "int64 < 2 OR date > %@", "date <= %@", "flag == NO", "flag != YES", "double < 2.5", "5 > int64",
        ]
        for kind in StoreKind.allCases {
            let files = try TemporaryDirectory()
            let container = try makeContainer(model, kind: kind, files: files)
            let context = container.newBackgroundContext()
            answers[kind] = try context.performAndWait {
                let values: [(Int64?, Bool?, Double?, Double?)] = [
                    (nil, nil, nil, nil), (1, true, 0.5, 1), (5, false, 2.5, 10), (9, true, 7, nil), (5, nil, nil, 20),
                ]
                for (index, (integer, flag, double, seconds)) in values.enumerated() {
                    let sample = ManagedObject(entity: model["Sample"]!, insertInto: context)
                    sample.setValue("sample \(index)", forKey: "string")
                    sample.setValue(integer, forKey: "int64")
                    sample.setValue(flag, forKey: "flag")
                    sample.setValue(double, forKey: "double")
                    sample.setValue(seconds.map(Date.init(timeIntervalSinceReferenceDate:)), forKey: "date")
                }
                try context.save()
                context.reset()
                return try predicates.map { format in
                    let request = FetchRequest<ManagedObject>(
                        entityName: "Sample", predicate: try ObjectPredicate(parsing: format, arguments: [Date(timeIntervalSinceReferenceDate: 10)]),
                        sortDescriptors: [ObjectSortDescriptor(key: "string")])
                    return try context.fetch(request).map { $0.value(forKey: "string") as? String ?? "" }
                }
            }
        }
        #expect(answers[.sqlite] == answers[.inMemory])
        #expect(answers[.inMemory]?[0] == ["sample 3"])
    }

    @Test("a predicate that does not translate whole reads the rows its translated parts keep")
    func narrowing() throws {
        let files = try TemporaryDirectory()
        let store = try sqliteStore(try makeContainer(model, kind: .sqlite, files: files))
        func plan(_ format: String) throws -> SQLiteStore.FetchPlan {
            store.fetchPlan(for: StoreRequest(
                entity: model["Tweet"]!, predicate: try ObjectPredicate(parsing: format, arguments: [Date(timeIntervalSinceReferenceDate: 5)])))
        }
        let narrowed = try plan("created > %@ AND tweeter.tweets.@count > 2")
        #expect(narrowed.statement.contains("FROM ZTWEET t0 WHERE t0.ZCREATED > ? ORDER BY"))
        #expect(narrowed.rest.predicate != nil)
        #expect(try plan("(text == 'a' AND tweeter.tweets.@count > 2) OR created == nil").statement.contains("WHERE (t0.ZTEXT COLLATE MO_PREDICATE = ? OR t0.ZCREATED IS NULL)"))
        for format in ["created > %@ OR tweeter.tweets.@count > 2", "NOT (created > %@ AND tweeter.tweets.@count > 2)"] {
            #expect(try plan(format).statement.contains("FROM ZTWEET t0 ORDER BY"), "\(format)")
        }
    }

    @Test("Z_ENT is tested only when the request leaves out some of the table's entities")
    func entityTest() throws {
        let files = try TemporaryDirectory()
        let library = LibraryModel.managedObjectModel
        let store = try sqliteStore(try makeContainer(library, kind: .sqlite, files: files))
        let media = library["Media"]!
        let whole = store.fetchPlan(for: StoreRequest(entity: media, resultType: .count))
        #expect(whole.countStatement == "SELECT COUNT(*) FROM ZMEDIA t0")
        let books = store.fetchPlan(for: StoreRequest(entity: library["Book"]!, resultType: .count))
        #expect(books.countStatement?.contains("WHERE t0.Z_ENT IN (") == true)
        let onlyMedia = store.fetchPlan(for: StoreRequest(entity: media, includesSubentities: false, resultType: .count))
        #expect(onlyMedia.countStatement?.contains("WHERE t0.Z_ENT IN (") == true)
    }

    @Test("a string constant holding a NUL is compared in memory: SQL would end it at the NUL")
    func constantsHoldingNUL() throws {
        let files = try TemporaryDirectory()
        let container = try makeContainer(model, kind: .sqlite, files: files)
        let store = try sqliteStore(container)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for (index, text) in ["", "a", "a\u{0}b"].enumerated() {
                let tweet = ManagedObject(entity: model["Tweet"]!, insertInto: context)
                tweet.setValue("t\(index)", forKey: "unique")
                tweet.setValue(text, forKey: "text")
            }
            try context.save()
            context.reset()
            // A libFuzzer find (Fuzz/FailCases/FuzzSQLTranslation): `text == '\0\0'` matched "".
            let everything = try context.fetch(FetchRequest<ManagedObject>(entityName: "Tweet"))
            for (format, constant) in [("text == %@", "\u{0}\u{0}"), ("text BEGINSWITH %@", "a\u{0}"), ("text CONTAINS %@", "\u{0}")] {
                let predicate = try ObjectPredicate(parsing: format, arguments: [constant])
                #expect(!store.fetchPlan(for: StoreRequest(entity: model["Tweet"]!, predicate: predicate)).statement.contains("?"))
                let found = try context.fetch(FetchRequest<ManagedObject>(entityName: "Tweet", predicate: predicate))
                    .compactMap { $0.value(forKey: "unique") as? String }
                let inMemory = everything.filter { predicate.evaluate(with: $0) }.compactMap { $0.value(forKey: "unique") as? String }
                #expect(found == inMemory, "\(format)")
                #expect(!found.contains("t0"), "\(format) does not match the empty text")
            }
        }
    }

    @Test("CONTAINS in SQL searches ASCII text in SQLite's buffer and folds the rest as the evaluator does")
    func containsInSQL() throws {
        let files = try TemporaryDirectory()
        let container = try makeContainer(model, kind: .sqlite, files: files)
        let store = try sqliteStore(container)
        let context = container.newBackgroundContext()
        // ASCII texts the byte search answers for; texts only Unicode folding or whole
        // characters answer for (long s, Kelvin sign, a combining accent after the match, a
        // NUL); LIKE's metacharacters; nil.
        let texts: [String?] = [
            "Swift on Linux", "SWIFT", "swi", "\u{17F}wift", "\u{212A}ELVIN", "swift\u{301}", "a\u{0}swift", "ÄSWIFT",
            "100% swift", "a_b", "aXb", "back\\slash", nil,
        ]
        let patterns = ["swift", "kelvin", "%", "_", "a_b", "0% s", "\\", "S"]
        try context.performAndWait {
            for (index, text) in texts.enumerated() {
                let tweet = ManagedObject(entity: model["Tweet"]!, insertInto: context)
                tweet.setValue(String(format: "t%03d", index), forKey: "unique")
                tweet.setValue(text, forKey: "text")
            }
            try context.save()
            context.reset()
            let everything = try context.fetch(FetchRequest<ManagedObject>(entityName: "Tweet"))
            for pattern in patterns {
                for format in ["text CONTAINS[c] %@", "NOT text CONTAINS[c] %@", "text CONTAINS %@", "text CONTAINS[cd] %@"] {
                    let predicate = try ObjectPredicate(parsing: format, arguments: [pattern])
                    let plan = store.fetchPlan(for: StoreRequest(entity: model["Tweet"]!, predicate: predicate))
                    #expect(plan.statement.contains("MO_STRING_MATCH(3, "), "\(format) with \(pattern) is translated")
                    let fromSQL = try context.fetch(FetchRequest<ManagedObject>(entityName: "Tweet", predicate: predicate))
                        .map { $0.value(forKey: "unique") as! String }
                    let inMemory = everything.filter { predicate.evaluate(with: $0) }.map { $0.value(forKey: "unique") as! String }
                    #expect(fromSQL == inMemory, "\(format) with \(pattern)")
                }
            }
            // The evaluator's answers, written out for the cases the fast path must not change.
            let swift = try context.fetch(FetchRequest<ManagedObject>(
                entityName: "Tweet", predicate: ObjectPredicate("text CONTAINS[c] %@", "swift")))
                .compactMap { $0.value(forKey: "text") as? String }
            #expect(swift.contains("SWIFT") && swift.contains("100% swift") && !swift.contains("swi"))
            // Whole characters, as NSString searches: an accent on the last letter makes it another.
            #expect(!swift.contains("swift\u{301}"))
            let prefixed = try context.fetch(FetchRequest<ManagedObject>(
                entityName: "Tweet", predicate: ObjectPredicate("text BEGINSWITH[c] %@", "swift")))
                .compactMap { $0.value(forKey: "text") as? String }
            #expect(Set(prefixed) == ["Swift on Linux", "SWIFT", "\u{17F}wift"])
            let percent = try context.fetch(FetchRequest<ManagedObject>(
                entityName: "Tweet", predicate: ObjectPredicate("text CONTAINS[c] %@", "%")))
            #expect(percent.count == 1)
        }
    }
}
