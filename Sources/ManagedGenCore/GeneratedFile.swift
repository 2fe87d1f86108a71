/// One generated source file: its name and text.
public struct GeneratedFile: Hashable, Sendable {
    public var name: String
    public var contents: String

    public init(name: String, contents: String) {
        self.name = name
        self.contents = contents
    }
}
