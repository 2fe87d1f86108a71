import Foundation

/// Shows a migration's progress on standard error: a bar redrawn in place on a terminal, a
/// plain line per step otherwise (a log, CI).
package struct MigrationProgressReporter: Sendable {
    let onTerminal: Bool

    package init(onTerminal: Bool) {
        self.onTerminal = onTerminal
    }

    /// `index` steps of `steps` are done (the one at `index` starts, unless all are done).
    package func report(_ index: Int, _ steps: [(source: String, destination: String)]) {
        FileHandle.standardError.write(Data(line(index, steps).utf8))
    }

    package func line(_ index: Int, _ steps: [(source: String, destination: String)]) -> String {
        let done = index >= steps.count
        let what = done ? "done" : "step \(index + 1) of \(steps.count): \(steps[index].source) → \(steps[index].destination)"
        guard onTerminal else { return "migrate: \(what)\n" }
        let width = 30
        let filled = steps.isEmpty ? width : width * min(index, steps.count) / steps.count
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        // Carriage return and clear-to-end-of-line redraw the one line; a newline once done.
        return "\r\u{1B}[K[\(bar)] \(what)" + (done ? "\n" : "")
    }
}
