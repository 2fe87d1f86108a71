/// Modifiers between the access level and the introducer, in the order written.
public enum MemberModifier: String, Hashable, Sendable {
    case `static`, `class`, `override`, `final`
}
