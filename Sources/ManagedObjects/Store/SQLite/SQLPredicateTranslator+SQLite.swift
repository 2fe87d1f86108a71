import DataModel
import Foundation
import GRDB
import GRDBSQLite

/// The SQLite side of predicate translation: the collations and the function that translated
/// SQL calls (``SQLPredicateTranslator``), added to each connection of an SQLite store. They
/// call the in-memory evaluator's own string comparisons, so SQL answers as memory does.
extension SQLPredicateTranslator {
    /// Adds the collations and the function translated SQL uses to a connection.
    package static func register(in db: Database) throws {
        for options in foldingOptions {
            db.add(collation: DatabaseCollation(predicateCollationName(options)) { StringMatching.compare($0, $1, options) })
        }
        for (comparison, name) in sortCollationNames {
            db.add(collation: DatabaseCollation(name) { comparison.compare($0, $1) })
        }
        // Through SQLite's C API, not GRDB's `DatabaseFunction`: the function runs for every
        // row a string operator filters, and GRDB makes an array of `SQLValue`s and a
        // String of each argument per call, which cost several times the match (a CONTAINS
        // of ASCII text is searched in SQLite's own buffer here).
        let code = sqlite3_create_function_v2(
            db.sqliteConnection, stringMatchFunction, 4, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
            { context, count, arguments in sqlite3_result_int(context, SQLPredicateTranslator.stringMatch(count == 4 ? arguments : nil) ? 1 : 0) },
            nil, nil, nil)
        guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot add the function \(stringMatchFunction)") }
    }

    /// `MO_STRING_MATCH(operator code, options, string, pattern)`: whether the evaluator's
    /// string operator matches; false for NULL or a number (as a String made of the value
    /// would be nil), a blob read as UTF-8 text as GRDB reads one into a String.
    private static func stringMatch(_ arguments: UnsafeMutablePointer<OpaquePointer?>?) -> Bool {
        guard let arguments else { return false }
        let code = Int(sqlite3_value_int64(arguments[0]))
        guard stringOperators.indices.contains(code), let operatorType = stringOperators[code] else { return false }
        let options = PredicateComparisonOptions(rawValue: Int(sqlite3_value_int64(arguments[1])))
        if operatorType == .contains, let string = textBytes(arguments[2]), let pattern = textBytes(arguments[3]),
           let found = StringMatching.asciiContains(string, pattern, options) {
            return found
        }
        guard let string = text(arguments[2]), let pattern = text(arguments[3]) else { return false }
        return matches(string, operatorType, pattern, options)
    }

    /// A text value's bytes up to its first NUL, where a String made of it ends; `nil` for
    /// another type. Valid until the value is next converted.
    private static func textBytes(_ value: OpaquePointer?) -> UnsafeBufferPointer<UInt8>? {
        guard sqlite3_value_type(value) == SQLITE_TEXT, let start = sqlite3_value_text(value) else { return nil }
        let count = Int(sqlite3_value_bytes(value))
        let end = memchr(start, 0, count).map { UnsafeRawPointer(start).distance(to: $0) } ?? count
        return UnsafeBufferPointer(start: start, count: end)
    }

    /// A value as GRDB reads it into a String: text up to its first NUL, a blob as UTF-8.
    private static func text(_ value: OpaquePointer?) -> String? {
        switch sqlite3_value_type(value) {
        case SQLITE_TEXT:
            return sqlite3_value_text(value).map { String(cString: $0) }
        case SQLITE_BLOB:
            guard let bytes = sqlite3_value_blob(value) else { return "" }
            return String(data: Data(bytes: bytes, count: Int(sqlite3_value_bytes(value))), encoding: .utf8)
        default:
            return nil
        }
    }

    /// The evaluator's string operators (`CompiledComparison`), for a string and a pattern.
    private static func matches(_ string: String, _ operatorType: PredicateOperator, _ pattern: String, _ options: PredicateComparisonOptions) -> Bool {
        switch operatorType {
        case .beginsWith: StringMatching.hasPrefix(string, foldedPrefix: StringMatching.fold(pattern, options), options)
        case .endsWith: StringMatching.fold(string, options).hasSuffix(StringMatching.fold(pattern, options))
        case .contains: StringMatching.contains(string, foldedPart: StringMatching.fold(pattern, options), options)
        case .like, .matches: compiledPattern(pattern, operatorType, options).matches(string)
        default: false
        }
    }

    /// A LIKE pattern or MATCHES expression compiled once, not once per row: the function is
    /// called per row, and compiling a regular expression costs far more than matching it.
    private static func compiledPattern(_ pattern: String, _ operatorType: PredicateOperator, _ options: PredicateComparisonOptions) -> CompiledPattern {
        let key = PatternKey(pattern: pattern, isRegularExpression: operatorType == .matches, options: options.rawValue)
        if let compiled = compiledPatterns.withLock({ $0[key] }) { return compiled }
        let compiled: CompiledPattern = key.isRegularExpression
            ? .regularExpression(try? StringMatching.RegularExpression(pattern, options: options))
            : .like(StringMatching.LikePattern(pattern, options: options))
        compiledPatterns.withLock { cache in
            // Patterns come from predicates' arguments: keep the cache small, not complete.
            if cache.count >= 64 { cache.removeAll() }
            cache[key] = compiled
        }
        return compiled
    }

    private struct PatternKey: Hashable {
        var pattern: String
        var isRegularExpression: Bool
        var options: Int
    }

    /// Immutable once made, so rows of concurrent reads share them.
    private enum CompiledPattern {
        case like(StringMatching.LikePattern)
        /// `nil` for an invalid expression, which matches nothing.
        case regularExpression(StringMatching.RegularExpression?)

        func matches(_ string: String) -> Bool {
            switch self {
            case .like(let pattern): pattern.matches(string)
            case .regularExpression(let expression): expression?.matches(string) ?? false
            }
        }
    }

    private static let compiledPatterns = LockedValue<[PatternKey: CompiledPattern]>([:])
}
