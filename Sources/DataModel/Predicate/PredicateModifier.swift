/// How a comparison treats a collection on its left: `NSComparisonPredicate.Modifier`, plus
/// `NONE` (which Foundation stores as `NOT ANY`). `SOME` is read as `ANY`, its synonym.
public enum PredicateModifier: String, Hashable, Sendable, CaseIterable {
    case direct
    case any = "ANY"
    case all = "ALL"
    case none = "NONE"
}
