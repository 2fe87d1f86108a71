import Foundation
import ManagedObjects
@testable import PostgreSQLStore

/// The server the tests run against: `MANAGEDGEN_POSTGRES_URL`, which `Scripts/postgres.sh
/// start` prints and `.ci/run` exports. Without it the suites are skipped (`.enabled(if:)`).
enum PostgreSQLTestServer {
    static let url: URL? = ProcessInfo.processInfo.environment["MANAGEDGEN_POSTGRES_URL"]
        .flatMap { $0.isEmpty ? nil : URL(string: $0) }

    static var isConfigured: Bool { url != nil }

    /// A URL whose tables live in a new schema of their own: tests run in parallel, and each
    /// starts from an empty database.
    static func freshDatabase() -> ScratchDatabase {
        ScratchDatabase(server: url ?? URL(fileURLWithPath: "/"))
    }
}

/// A schema of the test server, dropped (with its tables) when the test is done with it.
final class ScratchDatabase: Sendable {
    let server: URL
    let schema: String
    let url: URL

    init(server: URL) {
        self.server = server
        schema = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        url = URL(string: server.absoluteString + (server.query == nil ? "?" : "&") + "schema=\(schema)")!
    }

    func makeStore(_ model: ManagedObjectModel) throws -> PostgreSQLStore {
        try PostgreSQLStore(model: model, url: url)
    }

    /// A coordinator with a new store on this database, as another process would have.
    func makeCoordinator(_ model: ManagedObjectModel) throws -> PersistentStoreCoordinator {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        coordinator.addPersistentStore(try makeStore(model))
        return coordinator
    }

    /// Runs SQL of the test's own on the server (outside the schema).
    func execute(_ sql: String) throws {
        let pool = PostgreSQLConnectionPool(try PostgreSQLStore.connectionSettings(from: server))
        defer { pool.close() }
        try pool.withConnection { try pool.execute(sql, on: $0) }
    }

    deinit {
        try? execute("DROP SCHEMA IF EXISTS \(schema) CASCADE")
    }
}
