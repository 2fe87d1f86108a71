/// `[c]`, `[d]`, `[n]`, `[l]` and their combinations (`NSComparisonPredicate.Options`).
public struct PredicateComparisonOptions: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `[c]`: letters compare without regard to case.
    public static let caseInsensitive = PredicateComparisonOptions(rawValue: 1)
    /// `[d]`: letters compare without regard to accents (`é` equals `e`).
    public static let diacriticInsensitive = PredicateComparisonOptions(rawValue: 2)
    /// `[n]`: the strings are already normalized (a speed hint; it changes no result here).
    public static let normalized = PredicateComparisonOptions(rawValue: 4)
    /// `[l]`: compare in the user's locale (accepted; comparisons here are locale-independent).
    public static let localeSensitive = PredicateComparisonOptions(rawValue: 8)

    /// The letters between the brackets, in the printer's order: `cd`, `c`, `dn` …
    public var letters: String {
        var text = ""
        if contains(.caseInsensitive) { text += "c" }
        if contains(.diacriticInsensitive) { text += "d" }
        if contains(.normalized) { text += "n" }
        if contains(.localeSensitive) { text += "l" }
        return text
    }
}
