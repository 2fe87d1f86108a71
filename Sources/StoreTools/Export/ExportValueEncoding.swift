import Foundation
import ManagedObjects

/// A stored value as export text: JSON (numbers, strings, `null`, arrays, objects) or a CSV
/// cell. Dates are ISO 8601 in UTC with milliseconds; binary data and Transformable values no
/// transformer here decodes are base64; object IDs and URLs are their URIs; a decoded
/// Transformable value is its JSON form when it has one (strings, numbers, arrays,
/// dictionaries), else its description.
package enum ExportValueEncoding {
    package static func json(_ value: Any?) -> String {
        if let text = text(value) { return jsonString(text) }
        switch value {
        case nil, is NSNull: return "null"
        case let flag as Bool: return flag ? "true" : "false"
        case let number as Int16: return String(number)
        case let number as Int32: return String(number)
        case let number as Int64: return String(number)
        case let number as Int: return String(number)
        case let number as Double: return number.isFinite ? "\(number)" : jsonString("\(number)")
        case let number as Float: return number.isFinite ? "\(number)" : jsonString("\(number)")
        case let number as Decimal: return number.isNaN ? jsonString("NaN") : "\(number)"
        case let number as NSNumber: return "\(number)"
        case let array as [Any?]: return "[" + array.map(json).joined(separator: ",") + "]"
        case let array as [Any]: return "[" + array.map { json($0) }.joined(separator: ",") + "]"
        case let dictionary as [String: Any?]:
            return "{" + dictionary.sorted { $0.key < $1.key }.map { "\(jsonString($0.key)):\(json($0.value))" }.joined(separator: ",") + "}"
        case let dictionary as [String: Any]:
            return "{" + dictionary.sorted { $0.key < $1.key }.map { "\(jsonString($0.key)):\(json($0.value))" }.joined(separator: ",") + "}"
        case let value?: return jsonString("\(value)")
        }
    }

    /// A CSV cell (RFC 4180): quoted when it holds a comma, quote or line break.
    package static func csv(_ value: Any?) -> String {
        let cell: String
        switch value {
        case nil, is NSNull: return ""
        case let ids as [ManagedObjectID]: cell = ids.map(\.uriRepresentation.absoluteString).joined(separator: " ")
        default: cell = text(value) ?? json(value)
        }
        guard cell.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return cell }
        return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The text of a value written as a string in both formats; `nil` for the others.
    private static func text(_ value: Any?) -> String? {
        switch value {
        case let string as String: string
        case let date as Date: iso8601.format(date)
        case let data as Data: data.base64EncodedString()
        case let undecoded as UndecodedTransformable: undecoded.data.base64EncodedString()
        case let uuid as UUID: uuid.uuidString
        case let url as URL: url.absoluteString
        case let objectID as ManagedObjectID: objectID.uriRepresentation.absoluteString
        default: nil
        }
    }

    package static func jsonString(_ string: String) -> String {
        var result = "\""
        result.reserveCapacity(string.utf8.count + 2)
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case let control where control.value < 0x20:
                result += "\\u" + String(repeating: "0", count: 4 - String(control.value, radix: 16).count) + String(control.value, radix: 16)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// ISO 8601 in UTC with milliseconds: `2001-01-01T00:00:00.000Z`.
    private static let iso8601 = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
}
