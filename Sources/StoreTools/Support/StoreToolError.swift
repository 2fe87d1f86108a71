import Foundation

/// A store command's failure: the file concerned and what is wrong with it, printed as
/// `<file>: error: <message>` and ending the command with a non-zero status.
package struct StoreToolError: Error, CustomStringConvertible {
    package var file: String
    package var message: String

    package init(file: String, _ message: String) {
        self.file = file
        self.message = message
    }

    package var description: String { "\(file): error: \(message)" }
}
