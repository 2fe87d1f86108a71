import Foundation
import GRDB
import Logging

/// SQL debug logging for the SQLite store: off by default, switched on as Core Data's is.
///
/// - The launch argument `-com.apple.CoreData.SQLDebug 1` (levels 1 to 4), exactly as on an
///   Apple platform;
/// - or the environment variable `MANAGEDOBJECTS_SQL_DEBUG=1`, where a launch argument is
///   awkward (a test runner, a service);
/// - or in code: ``level``, and ``logger`` for where the lines go (any swift-log logger).
///
/// Each statement a store's connection runs is logged at the `debug` level with the time it
/// took, as `sql: SELECT … (0.000412 s)`. Levels 1 and 2 show the statement with its `?`
/// placeholders; from level 3 on the values are written in, as Core Data's level 3 adds the
/// bindings (so level 3 can put data in the log). A store reads the setting when it opens a
/// connection: set it before adding the store. Off, it costs nothing: no trace is installed.
public enum SQLDebugLog {
    /// The level asked for by the launch arguments or the environment, the higher of the two
    /// (0: off). A value that is not a number counts as 0; one above 4 as 4.
    public static func level(arguments: [String], environment: [String: String]) -> Int {
        let argument = arguments.firstIndex(of: "-com.apple.CoreData.SQLDebug").flatMap { index in
            arguments.indices.contains(index + 1) ? Int(arguments[index + 1]) : nil
        }
        let variable = environment["MANAGEDOBJECTS_SQL_DEBUG"].flatMap { Int($0) }
        return min(max(argument ?? 0, variable ?? 0, 0), 4)
    }

    private struct Settings {
        var level: Int
        var logger: Logger
    }

    private static let settings = LockedValue(Settings(
        level: level(arguments: ProcessInfo.processInfo.arguments, environment: ProcessInfo.processInfo.environment),
        logger: {
            var logger = Logger(label: "com.apple.CoreData.SQLDebug")
            logger.logLevel = .debug
            return logger
        }()))

    /// 0 (off) to 4; at first the level of the launch arguments or the environment.
    public static var level: Int {
        get { settings.withLock { $0.level } }
        set { settings.withLock { $0.level = min(max(newValue, 0), 4) } }
    }

    /// Where statements are logged, at the `debug` level: by default a logger labelled
    /// `com.apple.CoreData.SQLDebug` through the process's `LoggingSystem`. A logger whose level
    /// is above `debug` logs nothing.
    public static var logger: Logger {
        get { settings.withLock { $0.logger } }
        set { settings.withLock { $0.logger = newValue } }
    }

    /// Installs the statement trace on a new connection of a store, when logging is on.
    static func install(on db: Database) {
        let (level, logger) = settings.withLock { ($0.level, $0.logger) }
        guard level > 0, logger.logLevel <= .debug else { return }
        // SQLite's own profile time counts whole milliseconds here, and most statements take
        // less: each statement's time is measured from its start event to its profile event
        // (a statement can start while another one's rows are read, hence a stack per text).
        let clock = ContinuousClock()
        let running = RunningStatements()
        db.trace(options: [.statement, .profile]) { event in
            switch event {
            case .statement(let statement):
                let sql = statement.sql
                if !sql.hasPrefix("--") { running.starts[sql, default: []].append(clock.now) }
            case .profile(let statement, _):
                let sql = statement.sql
                guard let start = running.starts[sql]?.popLast() else { return }
                let seconds = (clock.now - start) / .seconds(1)
                logger.debug("sql: \(level >= 3 ? statement.expandedSQL : sql) (\(String(format: "%.6f", seconds)) s)")
            }
        }
    }

    /// When each statement of one connection that has started and not finished started, by
    /// text; used only on the connection's own queue.
    private final class RunningStatements {
        var starts: [String: [ContinuousClock.Instant]] = [:]
    }
}
