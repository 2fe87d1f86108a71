import Foundation

/// Text written to a file handle in chunks: an export writes millions of short pieces, and a
/// write call each would cost more than building them. Memory stays at one chunk.
package final class BufferedOutput {
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private let chunkSize: Int
    /// Where the text goes, for errors.
    private let name: String

    package init(handle: FileHandle, name: String, chunkSize: Int = 1 << 18) {
        self.handle = handle
        self.name = name
        self.chunkSize = chunkSize
        buffer.reserveCapacity(chunkSize)
    }

    package func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= chunkSize { try flush() }
    }

    package func flush() throws {
        guard !buffer.isEmpty else { return }
        do {
            try handle.write(contentsOf: buffer)
        } catch {
            throw StoreToolError(file: name, "cannot be written: \(error.localizedDescription)")
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
