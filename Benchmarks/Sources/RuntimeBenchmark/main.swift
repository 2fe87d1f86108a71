// ManagedObjects against raw SQLite (through GRDB's prepared statements) and against GRDB
// records (Codable structs through the query interface) on one workload:
// insert tweets related to users and save, fetch with a predicate and a sort, count, read
// every object, change one and save. Prints each step's median time on each side, the
// runtime's ratios to the other two, and each side's peak resident memory.
//
//   swift run -c release RuntimeBenchmark [tweet count] [runs]
//   RUNTIME_STORE=sqlite swift run -c release RuntimeBenchmark   (the runtime on an SQLite file)
//
// Each run of each side is a process of its own (this executable with `--side runtime`,
// `--side sqlite` or `--side records`), so the peak resident set (VmHWM) it reports is that
// side's alone and no run inherits another's heap.
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())

func positiveNumber(at position: Int, in arguments: [String], default defaultValue: Int) throws -> Int {
    guard arguments.count > position else { return defaultValue }
    guard let value = Int(arguments[position]), value > 0 else {
        throw BenchmarkError(description: "'\(arguments[position])' is not a positive number")
    }
    return value
}

/// The child process: one run of one side's whole workload, its report as JSON on stdout.
func runSide(_ side: Side, tweetCount: Int) throws {
    let workload = Workload(tweetCount: tweetCount)
    let report = switch side {
    case .runtime: try RuntimeSide.run(workload)
    case .sqlite: try SQLiteSide.run(workload)
    case .records: try RecordsSide.run(workload)
    }
    FileHandle.standardOutput.write(try JSONEncoder().encode(report))
}

/// Runs one side in a new process of this same executable and decodes its report.
func runChild(_ side: Side, tweetCount: Int) throws -> SideReport {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    process.arguments = ["--side", side.rawValue, String(tweetCount)]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw BenchmarkError(description: "the \(side.rawValue) side exited with status \(process.terminationStatus)")
    }
    return try JSONDecoder().decode(SideReport.self, from: data)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func milliseconds(_ seconds: Double) -> String {
    let ms = seconds * 1000
    return ms >= 100 ? String(format: "%.0f ms", ms) : ms >= 1 ? String(format: "%.1f ms", ms) : String(format: "%.3f ms", ms)
}

func mebibytes(_ kib: Double) -> String {
    String(format: "%.1f MiB", kib / 1024)
}

func ratio(_ runtime: Double, _ sqlite: Double) -> String {
    String(format: "%.2fx", runtime / sqlite)
}

/// A row of the table: a left-aligned label and right-aligned columns.
func tableRow(_ label: String, _ columns: [String]) -> String {
    let widths = [12, 12, 12, 10, 10]
    let row = label.padding(toLength: 34, withPad: " ", startingAt: 0)
        + zip(columns, widths).map { String(repeating: " ", count: max(0, $1 - $0.count)) + $0 }.joined()
    return String(row.reversed().drop(while: { $0 == " " }).reversed())
}

/// The parent process: `runs` runs of each side, then the table.
func runBoth(tweetCount: Int, runs: Int) throws {
    var reports: [Side: [SideReport]] = [:]
    for run in 0..<runs {
        // Rotating which side goes first spreads a busy machine's noise over all of them.
        let order = (0..<Side.allCases.count).map { Side.allCases[($0 + run) % Side.allCases.count] }
        for side in order {
            FileHandle.standardError.write(Data("run \(run + 1)/\(runs): \(side.rawValue)\n".utf8))
            reports[side, default: []].append(try runChild(side, tweetCount: tweetCount))
        }
    }
    let runtime = reports[.runtime] ?? []
    let sqlite = reports[.sqlite] ?? []
    let records = reports[.records] ?? []

    // All sides must have found the same objects, or the times compare different work.
    let results = (runtime + sqlite + records).map { [$0.matchingFetched, $0.matchingCounted, $0.allCounted, $0.checksum] }
    guard let first = results.first, results.allSatisfy({ $0 == first }), first[0] == first[1], first[2] == tweetCount else {
        throw BenchmarkError(description: "the sides disagree: [fetched, counted, all, checksum] = \(results)")
    }

    print("RuntimeBenchmark: \(tweetCount.formatted()) tweets of \(Workload.userCount.formatted()) users; "
          + "median of \(runs) runs per side, each run a new process")
    print("runtime: ManagedObjects, \(runtime[0].storeDescription)")
    print("SQLite:  \(sqlite[0].storeDescription)")
    print("records: \(records[0].storeDescription)")
    print("predicate: retweets > \(Workload.minimumRetweets) AND text CONTAINS[c] \"\(Workload.searchedText)\" "
          + "(SQLite: text LIKE '%\(Workload.searchedText)%'), sorted by created; "
          + "\(first[0].formatted()) matches on every side (\(String(format: "%.1f", Double(first[0]) * 100 / Double(tweetCount)))%)")
    print()
    print(tableRow("step", ["runtime", "SQLite", "records", "÷SQLite", "÷records"]))
    for step in Step.allCases {
        let runtimeSeconds = median(runtime.compactMap { $0.seconds[step] })
        let sqliteSeconds = median(sqlite.compactMap { $0.seconds[step] })
        let recordsSeconds = median(records.compactMap { $0.seconds[step] })
        print(tableRow(step.label(tweetCount: tweetCount), [
            milliseconds(runtimeSeconds), milliseconds(sqliteSeconds), milliseconds(recordsSeconds),
            ratio(runtimeSeconds, sqliteSeconds), ratio(runtimeSeconds, recordsSeconds),
        ]))
    }
    let peaks = [runtime, sqlite, records].map { reports in median(reports.map { Double($0.peakRSSKiB) }) }
    let starts = [runtime, sqlite, records].map { reports in median(reports.map { Double($0.startRSSKiB) }) }
    print(tableRow("7 peak RSS (VmHWM)", peaks.map(mebibytes) + [ratio(peaks[0], peaks[1]), ratio(peaks[0], peaks[2])]))
    print(tableRow("  RSS before the workload", starts.map(mebibytes)))
    print()
    print("Times: median over the runs. Read steps (2-5) each use a new context on the runtime side, "
          + "a new read transaction on SQLite and records. "
          + "÷SQLite and ÷records: the runtime's figure divided by that side's.")
    print("Memory: each side runs in its own process; VmHWM (peak resident set) is read from "
          + "/proc/self/status at the end of the workload, median over the runs. \"Before the workload\" "
          + "is VmRSS once the input data is generated, which both sides hold.")
}

do {
    if let sideFlag = arguments.firstIndex(of: "--side") {
        guard arguments.count > sideFlag + 1, let side = Side(rawValue: arguments[sideFlag + 1]) else {
            throw BenchmarkError(description: "--side takes runtime, sqlite or records")
        }
        try runSide(side, tweetCount: try positiveNumber(at: sideFlag + 2, in: arguments, default: 100_000))
    } else {
        try runBoth(tweetCount: try positiveNumber(at: 0, in: arguments, default: 100_000),
                    runs: try positiveNumber(at: 1, in: arguments, default: 5))
    }
} catch {
    FileHandle.standardError.write(Data("RuntimeBenchmark: \(error)\n".utf8))
    exit(1)
}
