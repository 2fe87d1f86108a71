@_spi(CoreData) import ManagedObjects

extension AttributeDescription {
    /// Core Data's `defaultValue: Any?`, shadowing the runtime's `(any Sendable)?` in code that
    /// imports CoreData. A model keeps numbers, strings, Booleans, dates, UUIDs and URLs;
    /// using a model whose draft has a default of another type throws, naming it.
    public var defaultValue: Any? {
        get { storedDefaultValue }
        set { setDefaultValue(newValue) }
    }
}
