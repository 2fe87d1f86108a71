/// One `<entry key="…" value="…"/>` of a `<userInfo>` block. Order is kept as written.
public struct UserInfoEntry: Hashable, Sendable, Codable {
    public var key: String
    public var value: String

    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}

extension Array where Element == UserInfoEntry {
    /// The value of the first entry with this key.
    public subscript(key: String) -> String? {
        first { $0.key == key }?.value
    }
}
