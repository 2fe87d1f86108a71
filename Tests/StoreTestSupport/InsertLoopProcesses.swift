import Foundation

/// `PostgreSQLInsertLoop` child processes (the PostgreSQL store's multi-process tests and load
/// benchmark) started together: each opens its store and listens for the others' changes, and
/// only when all listen are they told to start saving. A process that began listening after
/// another's save would never be told of it (PostgreSQL's NOTIFY reaches the sessions listening
/// when the sender commits), and would wait for it in vain.
public struct InsertLoopProcesses {
    /// What one process printed after its `listening` line, on standard output and (the first
    /// 4,000 bytes) on standard error, and how it exited.
    public struct Finished {
        public var status: Int32
        public var printed: String
        public var complaint: String
    }

    private let children: [(process: Process, output: Pipe, errors: Pipe, input: Pipe)]

    /// Starts one process per argument list (`--start-on-go` added) and returns once each has
    /// said it listens, or ended.
    public init(executable: URL, argumentLists: [[String]]) throws {
        var children: [(process: Process, output: Pipe, errors: Pipe, input: Pipe)] = []
        for arguments in argumentLists {
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments + ["--start-on-go"]
            let (output, errors, input) = (Pipe(), Pipe(), Pipe())
            process.standardOutput = output
            process.standardError = errors
            process.standardInput = input
            try process.run()
            children.append((process, output, errors, input))
        }
        for child in children {
            // Its first line, `listening` (nothing, when it ended before: its exit says why).
            while let byte = try child.output.fileHandleForReading.read(upToCount: 1)?.first, byte != UInt8(ascii: "\n") {}
        }
        self.children = children
    }

    /// Tells every process to start saving.
    public func go() throws {
        for child in children {
            let input = child.input.fileHandleForWriting
            // One that ended (a failure its exit reports) has no reader: writing would raise SIGPIPE.
            if child.process.isRunning { try input.write(contentsOf: Data("go\n".utf8)) }
            try input.close()
        }
    }

    /// Waits for every process to end.
    public func waitForAll() -> [Finished] {
        children.map { child in
            let printed = String(decoding: child.output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let complaint = String(decoding: child.errors.fileHandleForReading.readDataToEndOfFile().prefix(4_000), as: UTF8.self)
            child.process.waitUntilExit()
            return Finished(status: child.process.terminationStatus, printed: printed, complaint: complaint)
        }
    }
}
