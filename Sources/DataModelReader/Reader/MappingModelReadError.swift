#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Why a mapping model could not be read: the file, where in it, and what is wrong (naming the
/// entity mapping and property concerned).
public struct MappingModelReadError: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var location: SourceLocation?
    public var message: String

    public init(file: String, location: SourceLocation? = nil, message: String) {
        self.file = file
        self.location = location
        self.message = message
    }

    public var description: String { "\(location?.description ?? file): error: \(message)" }
}
