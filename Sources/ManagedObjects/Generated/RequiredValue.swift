extension GeneratedObjectAccess {
    /// What a generated non-optional view reads through (a strict non-optional property, a
    /// wrapper such as `origin` for `origin_`) where the type has no empty value to fall back
    /// on: the value, or a trap naming the property (`key` is `Entity.property`).
    public func required<Value>(_ value: Value?, key: String) -> Value {
        guard let value else { preconditionFailure("\(key) is nil") }
        return value
    }
}
