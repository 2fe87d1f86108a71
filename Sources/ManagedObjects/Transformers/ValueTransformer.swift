import Foundation

/// Converts a value to another and, when it allows, back; registered by name for a
/// Transformable attribute's `valueTransformerName`. Foundation's `ValueTransformer`, which
/// Swift on Linux does not have.
///
/// For a Transformable attribute, a store calls `transformedValue(_:)` to turn the object's
/// value into the `Data` it keeps and `reverseTransformedValue(_:)` to turn that `Data` back.
/// Unlike Foundation, a transformer is found with `valueTransformer(forName:)`: a Swift
/// initializer cannot hand back a registered instance.
open class ValueTransformer: @unchecked Sendable {
    // Unchecked: the base class holds no state; a subclass registered for use by stores must
    // be safe to call from any thread, as Foundation requires of registered transformers.

    public init() {}

    /// The class of the values `transformedValue(_:)` gives.
    open class func transformedValueClass() -> AnyClass { NSObject.self }

    /// Whether `reverseTransformedValue(_:)` undoes `transformedValue(_:)`.
    open class func allowsReverseTransformation() -> Bool { true }

    /// The base class gives `value` unchanged, as Foundation's does.
    open func transformedValue(_ value: Any?) -> Any? { value }

    /// The base class gives `value` unchanged, as Foundation's does.
    open func reverseTransformedValue(_ value: Any?) -> Any? { value }

    private static let registry = LockedValue<[ValueTransformerName: ValueTransformer]>([
        .secureUnarchiveFromDataTransformerName: SecureUnarchiveFromDataTransformer(),
    ])

    /// Registers `transformer` under `name`, replacing any; `nil` removes the name.
    public class func setValueTransformer(_ transformer: ValueTransformer?, forName name: ValueTransformerName) {
        registry.withLock { $0[name] = transformer }
    }

    /// The transformer registered under `name`, if any.
    public class func valueTransformer(forName name: ValueTransformerName) -> ValueTransformer? {
        registry.withLock { $0[name] }
    }

    /// `body`'s result on the registered transformers, all seen at one moment.
    static func withRegistry<Result>(_ body: ([ValueTransformerName: ValueTransformer]) -> Result) -> Result {
        registry.withLock { body($0) }
    }

    /// The names transformers are registered under.
    public class func valueTransformerNames() -> [ValueTransformerName] {
        registry.withLock { Array($0.keys) }.sorted { $0.rawValue < $1.rawValue }
    }
}
