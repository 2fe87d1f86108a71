/// Objective-C's method name, which Swift has only with the Objective-C runtime. Core Data code
/// names one for a sort descriptor's string comparison
/// (`NSSortDescriptor(key:ascending:selector:)`, SugarRecord's `sorted(with:ascending:selector:)`):
/// `Selector("localizedStandardCompare:")` or a string literal. `#selector` does not exist on
/// Linux; nothing calls a method by a selector here.
public struct Selector: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    private let name: String

    public init(_ name: String) {
        self.name = name
    }

    public init(stringLiteral name: String) {
        self.init(name)
    }

    public var description: String { name }
}
