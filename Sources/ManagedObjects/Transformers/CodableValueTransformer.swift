import Foundation

/// Stores a Transformable attribute whose `customClassName` is a Swift `Codable` type as the
/// value's JSON (UTF-8, keys sorted, so equal values give equal bytes) and reads it back as
/// that type.
///
/// Apple's Core Data cannot do this with its default transformer (it archives only
/// `NSSecureCoding` classes); here a `Codable` struct needs no code of its own. Generated code
/// registers one for every attribute whose user info says `managedgen.codable` = `YES`; code
/// that builds its model otherwise calls ``register(forClassName:)``. A store then uses it for
/// every Transformable attribute with that `customClassName` whose model names no transformer
/// of its own (none, or Core Data's default).
public final class CodableValueTransformer<Value: Codable>: ValueTransformer, @unchecked Sendable {
    // Unchecked: no stored state; encoders are made per call.

    override public init() {}

    override public class func transformedValueClass() -> AnyClass { NSData.self }
    override public class func allowsReverseTransformation() -> Bool { true }

    /// Registers a transformer for `Value` as the one for Transformable attributes whose
    /// `customClassName` is `className` (as the model writes it).
    public static func register(forClassName className: String) {
        ValueTransformer.setValueTransformer(CodableValueTransformer<Value>(), forName: .codable(className: className))
    }

    /// The JSON of `value`; `nil` when it is not a `Value` or does not encode.
    override public func transformedValue(_ value: Any?) -> Any? {
        value.flatMap { try? encode($0) }
    }

    /// The `Value` `value` (JSON `Data`) decodes to; `nil` when it does not.
    override public func reverseTransformedValue(_ value: Any?) -> Any? {
        (value as? Data).flatMap { try? decode($0) }
    }

    /// The JSON of `value`; throws saying why there is none.
    public func encode(_ value: Any) throws -> Data {
        guard let typed = value as? Value else {
            throw CodableTransformError("a \(type(of: value)) is not a \(Value.self), the Codable type this attribute stores")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            return try encoder.encode(typed)
        } catch {
            throw CodableTransformError("\(Value.self) does not encode as JSON: \(error)")
        }
    }

    /// The `Value` `data` holds; throws saying what is wrong with it.
    public func decode(_ data: Data) throws -> Value {
        do {
            return try JSONDecoder().decode(Value.self, from: data)
        } catch {
            throw CodableTransformError("the stored \(data.count) bytes are not the JSON of a \(Value.self): \(error)")
        }
    }
}

/// What a store needs of a Codable transformer, whatever its `Value`: errors that say why.
protocol CodableTransforming {
    func encode(_ value: Any) throws -> Data
    func decodeValue(_ data: Data) throws -> Any
}

extension CodableValueTransformer: CodableTransforming {
    func decodeValue(_ data: Data) throws -> Any { try decode(data) }
}

/// Why a Codable transformer gave no value (a store puts it in its error naming the attribute
/// and the object).
struct CodableTransformError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
