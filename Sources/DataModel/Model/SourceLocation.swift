/// Where something was read from: a file path and a 1-based line and column.
public struct SourceLocation: Hashable, Sendable, Codable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int = 0, column: Int = 0) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `path:line:col`, leaving out a line or column that is not known (0).
    public var description: String {
        var text = file
        if line > 0 {
            text += ":\(line)"
            if column > 0 { text += ":\(column)" }
        }
        return text
    }
}
