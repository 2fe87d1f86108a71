import Foundation
import ManagedObjects

/// The input's first line is a format string; each further line `key=value` puts a value in
/// the dictionary it is evaluated on (an integer, a decimal number, true/false, nil, a
/// comma-separated list in brackets, a date as `@seconds`, or else a string). The checked
/// evaluation never traps, gives the same answer twice, and NOT gives the opposite answer.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPredicateEvaluation(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard !lines.isEmpty, let predicate = try? ObjectPredicate(parsing: lines.removeFirst()) else { return 0 }
    var object: [String: Any] = [:]
    for line in lines {
        guard let equals = line.firstIndex(of: "=") else { continue }
        object[String(line[..<equals])] = value(String(line[line.index(after: equals)...]))
    }
    // The checked evaluation: an unbound `$VARIABLE` is an error here, where `evaluate(with:)`
    // stops the program as NSPredicate raises.
    guard let answer = try? predicate.evaluateChecked(with: object) else { return 0 }
    guard (try? predicate.evaluateChecked(with: object)) == answer else { fatalError("two answers for \(predicate)") }
    guard (try? ObjectPredicate.not(predicate).evaluateChecked(with: object)) == !answer else {
        fatalError("NOT(\(predicate)) is not the opposite answer on \(object)")
    }
    return 0
}

func value(_ text: String) -> Any {
    if text == "nil" { return NSNull() }
    if text == "true" || text == "false" { return text == "true" }
    if let integer = Int(text) { return integer }
    if let number = Double(text) { return number }
    if text.hasPrefix("@"), let seconds = Double(text.dropFirst()) { return Date(timeIntervalSinceReferenceDate: seconds) }
    if text.hasPrefix("["), text.hasSuffix("]") {
        return text.dropFirst().dropLast().split(separator: ",").map { value(String($0)) }
    }
    return text
}
