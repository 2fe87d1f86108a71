import Foundation

/// The timed steps, in the order each side runs them.
enum Step: String, Codable, CodingKeyRepresentable, CaseIterable {
    case insertAndSave
    case fetchMatching
    case countAll
    case countMatching
    case fetchAllAndRead
    case changeOneAndSave

    func label(tweetCount: Int) -> String {
        switch self {
        case .insertAndSave: "1 insert \(tweetCount.formatted()) + save"
        case .fetchMatching: "2 fetch predicate, sorted"
        case .countAll: "3 count all"
        case .countMatching: "4 count predicate"
        case .fetchAllAndRead: "5 fetch all, read 5 attributes"
        case .changeOneAndSave: "6 change one + save"
        }
    }
}

/// What one side's process measured in one run of the whole workload, sent to the parent
/// process as JSON on standard output.
struct SideReport: Codable {
    var seconds: [Step: Double] = [:]
    /// Results, compared between the sides so both are known to have done the same work.
    var matchingFetched = 0
    var matchingCounted = 0
    var allCounted = 0
    var checksum = 0
    /// Resident set of the process before the workload (libraries, runtime) and its peak.
    var startRSSKiB = 0
    var peakRSSKiB = 0
    /// How the side stores its data, for the table's header.
    var storeDescription = ""
}

enum Side: String, CaseIterable {
    case runtime
    case sqlite
    case records
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
}

/// Runs `body` and adds how long it took to `seconds` under `step`.
func measure<T>(_ step: Step, into report: inout SideReport, _ body: () throws -> T) rethrows -> T {
    let clock = ContinuousClock()
    let start = clock.now
    let result = try body()
    let elapsed = clock.now - start
    report.seconds[step] = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return result
}

/// A `VmXXX:` line of /proc/self/status in KiB: `VmHWM` is the peak resident set since the
/// process started, `VmRSS` the current one.
func processStatusKiB(_ field: String) throws -> Int {
    let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
    for line in status.split(separator: "\n") where line.hasPrefix("\(field):") {
        // "VmHWM:\t  123456 kB"
        let number = line.dropFirst(field.count + 1).drop(while: \.isWhitespace).prefix(while: \.isNumber)
        if let kib = Int(number) { return kib }
    }
    throw BenchmarkError(description: "/proc/self/status has no \(field) line")
}
