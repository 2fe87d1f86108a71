/// A `<fetchIndex>` with its elements.
public struct FetchIndex: Hashable, Sendable, Codable {
    public struct Element: Hashable, Sendable, Codable {
        /// The indexed property, or `nil` for an expression element.
        public var property: String?
        public var expression: String?
        public var expressionType: String?
        /// `Binary` or `RTree` (compare without regard to case).
        public var type: String
        public var ascending: Bool

        public init(
            property: String? = nil,
            expression: String? = nil,
            expressionType: String? = nil,
            type: String = "Binary",
            ascending: Bool = true
        ) {
            self.property = property
            self.expression = expression
            self.expressionType = expressionType
            self.type = type
            self.ascending = ascending
        }
    }

    public var name: String
    public var elements: [Element]
    public var location: SourceLocation?

    public init(name: String, elements: [Element] = [], location: SourceLocation? = nil) {
        self.name = name
        self.elements = elements
        self.location = location
    }
}
