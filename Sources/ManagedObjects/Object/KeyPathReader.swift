/// Key-value coding's entry to ``CompiledKeyPath``, the one reader of key paths, for callers
/// that hold a path as keys (`ManagedObject.value(forKeyPath:)`).
enum KeyPathReader {
    static func value(of object: KeyValueCoding, at keys: [String]) -> Any? {
        CompiledKeyPath(keyValueKeys: keys).keyValue(of: object)
    }
}
