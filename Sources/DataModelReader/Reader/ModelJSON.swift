import Foundation

/// The JSON form of a model as read: what `managedgen dump` prints, for inspecting what the
/// reader saw and for diffing models. Keys are sorted and the layout is fixed, so the same
/// model always gives the same bytes.
extension Model {
    /// The model as pretty-printed JSON with sorted keys (no trailing newline). Source
    /// locations are left out unless `includingLocations` is `true`, so the output does not
    /// change when lines in the file move.
    public func jsonRepresentation(includingLocations: Bool = false) throws -> Data {
        try ModelJSON.encode(includingLocations ? self : withoutSourceLocations())
    }
}

extension ModelBundle {
    /// The whole bundle, every version, as `Model.jsonRepresentation(includingLocations:)` writes a model.
    public func jsonRepresentation(includingLocations: Bool = false) throws -> Data {
        try ModelJSON.encode(includingLocations ? self : withoutSourceLocations())
    }
}

private enum ModelJSON {
    static func encode(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }
}
