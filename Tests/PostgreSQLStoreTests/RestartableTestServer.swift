import Foundation

/// A throwaway server of one test's own (`Scripts/postgres.sh` on a port of its own), which the
/// test may restart or stop: the server of `MANAGEDGEN_POSTGRES_URL` serves the suites running
/// in parallel, which a restart would break.
final class RestartableTestServer {
    /// `Scripts/postgres.sh` of the repository this file is in.
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scripts/postgres.sh")

    let port: Int
    let url: URL

    /// Starts a server on a port from this process's ID (54360–54459), so that two test
    /// processes running at once are unlikely to meet.
    init() throws {
        port = 54_360 + Int(getpid() % 100)
        let printed = try Self.run(["start"], port: port)
        guard let url = URL(string: printed.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw ServerError(message: "postgres.sh start printed \(printed)")
        }
        self.url = url
    }

    /// Stops the server (every connection ends), waits `seconds`, starts it again on its data.
    func restart(pausing seconds: Int) throws {
        _ = try Self.run(["restart", String(seconds)], port: port)
    }

    /// Stops the server and removes its data.
    func stop() {
        _ = try? Self.run(["stop"], port: port)
    }

    private static func run(_ arguments: [String], port: Int) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script.path] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["MANAGEDGEN_POSTGRES_PORT": String(port)]) { _, new in new }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let complaint = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ServerError(message: "postgres.sh \(arguments.joined(separator: " ")) exited with \(process.terminationStatus): \(complaint)")
        }
        return printed
    }

    struct ServerError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
