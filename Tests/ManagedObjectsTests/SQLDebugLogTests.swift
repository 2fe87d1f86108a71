import Foundation
import Logging
import Testing
@testable import ManagedObjects

@Suite("SQL debug logging")
struct SQLDebugLogTests {
    @Test("Switched on by Core Data's launch argument or the environment variable")
    func levelFromLaunchArgumentsAndEnvironment() {
        #expect(SQLDebugLog.level(arguments: ["App"], environment: [:]) == 0)
        #expect(SQLDebugLog.level(arguments: ["App", "-com.apple.CoreData.SQLDebug", "1"], environment: [:]) == 1)
        #expect(SQLDebugLog.level(arguments: ["App", "-com.apple.CoreData.SQLDebug", "3", "-other"], environment: [:]) == 3)
        #expect(SQLDebugLog.level(arguments: ["App"], environment: ["MANAGEDOBJECTS_SQL_DEBUG": "2"]) == 2)
        #expect(SQLDebugLog.level(
            arguments: ["App", "-com.apple.CoreData.SQLDebug", "1"], environment: ["MANAGEDOBJECTS_SQL_DEBUG": "3"]) == 3)
        // Not a number, missing, out of range.
        #expect(SQLDebugLog.level(arguments: ["App", "-com.apple.CoreData.SQLDebug", "YES"], environment: [:]) == 0)
        #expect(SQLDebugLog.level(arguments: ["App", "-com.apple.CoreData.SQLDebug"], environment: [:]) == 0)
        #expect(SQLDebugLog.level(arguments: ["App"], environment: ["MANAGEDOBJECTS_SQL_DEBUG": "9"]) == 4)
        #expect(SQLDebugLog.level(arguments: ["App"], environment: ["MANAGEDOBJECTS_SQL_DEBUG": "-1"]) == 0)
    }

    /// The messages a store logged while `level` was set, for an insert and a fetch of an entry
    /// whose writer is `writer`.
    private func messages(atLevel level: Int, writer: Int64) throws -> [String] {
        let captured = LockedValue<[String]>([])
        let savedLevel = SQLDebugLog.level
        let savedLogger = SQLDebugLog.logger
        defer {
            SQLDebugLog.level = savedLevel
            SQLDebugLog.logger = savedLogger
        }
        var logger = Logger(label: "test") { _ in CapturingLogHandler(messages: captured) }
        logger.logLevel = .debug
        SQLDebugLog.logger = logger
        SQLDebugLog.level = level

        let files = try TemporaryDirectory()
        let context = try sqliteContext(LedgerModel.managedObjectModel, at: files.file("Ledger.sqlite"))
        try context.performAndWait {
            let entry = ManagedObject(entity: LedgerModel.managedObjectModel["Entry"]!, insertInto: context)
            entry.setValue(writer, forKey: "writer")
            try context.save()
            let request = FetchRequest<ManagedObject>(entityName: "Entry")
            request.predicate = ObjectPredicate("writer == %@", NSNumber(value: writer))
            #expect(try context.fetch(request).count == 1)
        }
        return captured.withLock { $0 }
    }

    @Test("Each statement is logged with its time; its values only from level 3 on")
    func statementsAreLogged() throws {
        // A number no other statement of the test run holds.
        let writer: Int64 = 7_364_019_283
        let statement = #/^sql: .+ \(\d+\.\d{6} s\)$/#

        let levelOne = try messages(atLevel: 1, writer: writer)
        // A save's rows go in by `INSERT OR FAIL INTO` (SQLRowLayout.sqliteInsertSQL(rows:)).
        let insert = try #require(levelOne.first { $0.contains("INSERT OR FAIL INTO ZENTRY") })
        #expect(insert.wholeMatch(of: statement) != nil, "\(insert)")
        #expect(levelOne.contains { $0.contains("SELECT") && $0.contains("FROM ZENTRY") })
        #expect(!levelOne.contains { $0.contains(String(writer)) }, "level 1 wrote a bound value into the log")

        let levelThree = try messages(atLevel: 3, writer: writer)
        #expect(levelThree.contains { $0.contains("INSERT OR FAIL INTO ZENTRY") && $0.contains(String(writer)) })
        #expect(levelThree.contains { $0.contains("FROM ZENTRY") && $0.contains(String(writer)) })

        #expect(try !messages(atLevel: 0, writer: writer).contains { $0.contains("ZENTRY") })
    }
}

/// Keeps every message it is given.
private struct CapturingLogHandler: LogHandler {
    let messages: LockedValue<[String]>
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        messages.withLock { $0.append(event.message.description) }
    }
}
