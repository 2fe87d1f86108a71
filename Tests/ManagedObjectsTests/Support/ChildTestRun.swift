import Foundation

/// This test binary run again with one test alone, for tests that need a second process (a
/// reader or writer of the same store); the child test learns its part from `environment`.
enum ChildTestRun {
    /// Runs the test `testID` (`Suite/test`) in a child process and waits for it: its exit
    /// status, and the end of what it printed, for a failure message.
    static func run(_ testID: String, environment extra: [String: String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["--testing-library", "swift-testing", "--filter", testID]
        process.environment = ProcessInfo.processInfo.environment.merging(extra) { _, given in given }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(String(decoding: printed, as: UTF8.self).suffix(3000)))
    }
}
