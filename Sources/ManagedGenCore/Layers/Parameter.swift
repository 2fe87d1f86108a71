/// One parameter: `label name: Type = default`.
public struct Parameter: Hashable, Sendable {
    /// The argument label; `nil` means the same as the name, `"_"` means none.
    public var label: String?
    public var name: String
    public var type: String
    public var defaultValue: String?

    public init(label: String? = nil, name: String, type: String, defaultValue: String? = nil) {
        self.label = label
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
    }
}
