import Foundation
import GRDB
@testable import ManagedObjects
import Testing

@Suite("SQLite store: rows narrowed by SQL before the predicate is evaluated")
struct SQLiteRowFilterTests {
    let model = GalleryModel.managedObjectModel

    func condition(_ format: String, _ arguments: Any...) throws -> SQLiteRowFilter.Condition? {
        let entity = model["Sample"]!
        let storage = SQLiteSchema(model: model).storage["Sample"]!
        return SQLiteRowFilter.condition(
            for: try ObjectPredicate(parsing: format, arguments: arguments), storage: storage, entity: entity)
    }

    @Test("comparisons of numbers, Booleans and dates become bound SQL that also keeps NULL rows")
    func translated() throws {
        let greater = try #require(try condition("int64 > 5"))
        #expect(greater.sql == "(ZINT64 IS NULL OR ZINT64 > ?)" && greater.arguments == [5.databaseValue])
        #expect(try condition("5 < int64")?.sql == "(ZINT64 IS NULL OR ZINT64 > ?)")
        let date = Date(timeIntervalSinceReferenceDate: 42.5)
        let dated = try #require(try condition("%K <= %@", "date", date))
        #expect(dated.sql == "(ZDATE IS NULL OR ZDATE <= ?)" && dated.arguments == [(42.5).databaseValue])
        #expect(try condition("flag == YES")?.arguments == [1.databaseValue])
        #expect(try condition("int32 == nil")?.sql == "ZINT32 IS NULL")
        #expect(try condition("int32 != nil")?.sql == "ZINT32 IS NOT NULL")
        #expect(try condition("int64 > 5 AND string == 'x'")?.sql == "(ZINT64 IS NULL OR ZINT64 > ?)")
        #expect(try condition("int64 > 5 OR double < 1.5")?.sql == "((ZINT64 IS NULL OR ZINT64 > ?) OR (ZDOUBLE IS NULL OR ZDOUBLE < ?))")
        #expect(try condition("FALSEPREDICATE")?.sql == "0")
    }

    @Test("what SQL could answer differently keeps every row")
    func untranslated() throws {
        for format in ["NOT (int64 > 5)", "int64 > 5 OR string == 'x'", "string == 'x'", "float > 1", "decimal > 1",
                       "owner.name == 'x'", "int64 > double", "int64 IN {1, 2}", "int64 > $LIMIT", "TRUEPREDICATE"] {
            #expect(try condition(format) == nil, "\(format)")
        }
        #expect(try condition("date < %@", 5) == nil, "a number is no date")
    }

    @Test("narrowed fetches answer as the in-memory store does, nil values included")
    func sameAnswers() throws {
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
}

extension SQLiteRowFilter.Condition: Equatable {
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.sql == rhs.sql && lhs.arguments == rhs.arguments }
}
