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

    /// Runs the script and waits for it with `waitpid` (Foundation's `Process.waitUntilExit`
    /// was seen never to return here once the script had exited); its output goes through files.
    private static func run(_ arguments: [String], port: Int) throws -> String {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("postgres-sh-\(port)-\(UUID().uuidString)")
        let outputPath = base.path + ".out"
        let errorPath = base.path + ".err"
        defer {
            try? FileManager.default.removeItem(atPath: outputPath)
            try? FileManager.default.removeItem(atPath: errorPath)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let environment = ProcessInfo.processInfo.environment.merging(["MANAGEDGEN_POSTGRES_PORT": String(port)]) { _, new in new }
        let argv = (["/bin/bash", script.path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/bash", &actions, nil, argv, envp)
        guard spawned == 0 else { throw ServerError(message: "cannot run postgres.sh: error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let printed = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        let complaint = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
        guard status == 0 else {
            throw ServerError(message: "postgres.sh \(arguments.joined(separator: " ")) failed (status \(status)): \(complaint)")
        }
        return printed
    }

    struct ServerError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
