/// What happens to the destination objects when the source object is deleted.
public enum DeleteRule: String, Hashable, Sendable, Codable, CaseIterable {
    case nullify = "Nullify"
    case cascade = "Cascade"
    case deny = "Deny"
    case noAction = "No Action"
}
