/// An access level a declaration is written with.
public enum AccessModifier: String, Hashable, Sendable, Codable, CaseIterable {
    case open, `public`, package, `internal`, `fileprivate`, `private`
}
