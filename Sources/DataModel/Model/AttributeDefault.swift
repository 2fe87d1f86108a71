import Foundation

/// An attribute's default value read as its type: the one reading of `defaultValueString` (and
/// `defaultDateTimeInterval`) that the generator's literals and the runtime's defaults share.
///
/// Real models hold defaults Xcode's editor would not write today; they are read as Core Data
/// reads them into an `NSNumber`:
/// - numbers accept `YES`/`NO` (and `true`/`false`) as 1 and 0;
/// - integers accept a whole number written with a fraction or exponent (`1.0`, `1e3`), and
///   refuse values outside the attribute's width (`40000` on Integer 16) or with a fraction;
/// - Booleans accept `YES`/`NO`/`true`/`false` and numbers (non-zero is true);
/// - surrounding whitespace is ignored, except for strings, which are kept as written;
/// - numbers are plain decimal notation only (no `0x`, `inf` or `nan`);
/// - anything else that does not read as the type (`junk` on a UUID) is no default.
public enum AttributeDefault: Hashable, Sendable {
    /// Integer 16, 32 and 64, within the attribute's width.
    case integer(Int64)
    /// Decimal.
    case decimal(Decimal)
    /// Double and Float (within Float's range for Float).
    case double(Double)
    case boolean(Bool)
    case string(String)
    /// Seconds since 2001-01-01 00:00:00 UTC.
    case date(TimeInterval)
    case uuid(UUID)
    case uri(URL)

    /// `text` read as a default of an attribute of `type`, or `nil` when it is not one. For
    /// Date, `text` is seconds since 2001-01-01 (Xcode writes `defaultDateTimeInterval`
    /// instead; see ``Attribute/parsedDefault``). Binary, Transformable, Object ID, Composite
    /// and Undefined attributes have no defaults.
    public init?(parsing text: String, as type: AttributeType) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch type {
        case .integer16, .integer32, .integer64:
            guard let value = Self.integer(trimmed), Self.fits(value, type) else { return nil }
            self = .integer(value)
        case .decimal:
            if let flag = Self.boolean(trimmed) {
                self = .decimal(flag ? 1 : 0)
            } else if Self.isPlainNumber(trimmed), let value = Decimal(string: trimmed, locale: Self.posix) {
                self = .decimal(value)
            } else {
                return nil
            }
        case .double, .float:
            guard let value = Self.floating(trimmed), value.isFinite else { return nil }
            // A literal beyond Float's range would be infinity at run time and a compile error in Swift.
            if type == .float, !Float(value).isFinite { return nil }
            self = .double(value)
        case .boolean:
            if let flag = Self.boolean(trimmed) {
                self = .boolean(flag)
            } else if Self.isPlainNumber(trimmed), let number = Double(trimmed) {
                self = .boolean(number != 0)
            } else {
                return nil
            }
        case .string:
            self = .string(text)
        case .date:
            guard Self.isPlainNumber(trimmed), let seconds = Double(trimmed), seconds.isFinite else { return nil }
            self = .date(seconds)
        case .uuid:
            guard let uuid = UUID(uuidString: trimmed) else { return nil }
            self = .uuid(uuid)
        case .uri:
            guard !trimmed.isEmpty, let url = URL(string: trimmed) else { return nil }
            self = .uri(url)
        case .binary, .transformable, .objectID, .composite, .undefined:
            return nil
        }
    }

    private static let posix = Locale(identifier: "en_US_POSIX")

    private static func boolean(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "yes", "true": true
        case "no", "false": false
        default: nil
        }
    }

    private static func integer(_ text: String) -> Int64? {
        if let flag = boolean(text) { return flag ? 1 : 0 }
        if let value = Int64(text) { return value }
        // "1.0" on an integer attribute: a whole number written as a decimal.
        guard isPlainNumber(text), let value = Double(text), value.rounded() == value else { return nil }
        return Int64(exactly: value)
    }

    private static func floating(_ text: String) -> Double? {
        if let flag = boolean(text) { return flag ? 1 : 0 }
        return isPlainNumber(text) ? Double(text) : nil
    }

    private static func fits(_ value: Int64, _ type: AttributeType) -> Bool {
        switch type {
        case .integer16: Int16(exactly: value) != nil
        case .integer32: Int32(exactly: value) != nil
        default: true
        }
    }

    /// Decimal notation: a sign, digits with at most one point, an optional exponent. Swift's
    /// `Double(_:)` also reads hexadecimal, `inf` and `nan`, which no model means.
    private static func isPlainNumber(_ text: String) -> Bool {
        var rest = Substring(text)
        if rest.first == "+" || rest.first == "-" { rest = rest.dropFirst() }
        let mantissa = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        guard mantissa.contains(where: \.isNumber), mantissa.filter({ $0 == "." }).count <= 1 else { return false }
        rest = rest.dropFirst(mantissa.count)
        guard let marker = rest.first else { return true }
        guard marker == "e" || marker == "E" else { return false }
        rest = rest.dropFirst()
        if rest.first == "+" || rest.first == "-" { rest = rest.dropFirst() }
        return !rest.isEmpty && rest.allSatisfy { $0.isASCII && $0.isNumber }
    }
}

extension Attribute {
    /// The model's default for this attribute read as its type (see ``AttributeDefault``), or
    /// `nil` when it has none or it does not read as the type. A Date's default is
    /// `defaultDateTimeInterval`, else `defaultValueString` as seconds since 2001-01-01.
    public var parsedDefault: AttributeDefault? {
        if type == .date, let interval = defaultDateTimeInterval { return .date(interval) }
        return defaultValueString.flatMap { AttributeDefault(parsing: $0, as: type) }
    }
}
