/// The structured Swift the translator produces and the renderer prints: a deliberately small
/// declaration model (only what generated managed-object code needs). Bodies are lines of code,
/// not expression trees: the generator writes a handful of fixed statement shapes, and keeping
/// them as text keeps the model small while the layout (indentation, order, blank lines) stays
/// the renderer's job.

/// One generated source file.
public struct SwiftFile: Hashable, Sendable {
    /// The file name, e.g. `Dog.swift`.
    public var name: String
    /// Line comments at the top (without `//`).
    public var headerComments: [String]
    /// Modules to import, in order.
    public var imports: [Import]
    public var declarations: [Declaration]

    public init(name: String, headerComments: [String] = [], imports: [Import] = [], declarations: [Declaration] = []) {
        self.name = name
        self.headerComments = headerComments
        self.imports = imports
        self.declarations = declarations
    }
}
