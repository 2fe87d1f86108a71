/// One version of a model: a `.xcdatamodel` folder and the model its `contents` file holds.
public struct ModelVersion: Hashable, Sendable, Codable {
    /// The folder name without `.xcdatamodel` (`Model 2`), or the file name for a bare file.
    public var name: String
    /// The path of the `contents` file that was read.
    public var path: String
    public var model: Model

    public init(name: String, path: String, model: Model) {
        self.name = name
        self.path = path
        self.model = model
    }
}
