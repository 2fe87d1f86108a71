import ArgumentParser
import Foundation

/// The store commands `managedgen` offers beside the model commands.
package enum StoreToolCommands {
    package static func all() -> [any ParsableCommand.Type] {
        [InspectCommand.self, DiffCommand.self, MigrateCommand.self, ExportCommand.self]
    }

    /// Runs a command's work: a ``StoreToolError`` (or any other error) is printed on standard
    /// error as `<file>: error: <message>` and the command exits with status 1.
    static func reportingErrors(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as StoreToolError {
            printError(error.description)
            throw ExitCode.failure
        } catch let error as ExitCode {
            throw error
        } catch {
            printError("error: \(error)")
            throw ExitCode.failure
        }
    }

    static func printError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
