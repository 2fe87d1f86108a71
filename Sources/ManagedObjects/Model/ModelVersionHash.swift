import DataModel
import Foundation

/// Version hashes of entities and properties, as Core Data computes them
/// (`NSEntityDescription.versionHash`, `NSPropertyDescription.versionHash`): SHA-256 digests
/// fed in this order, with integers little-endian:
///
/// - a property: its name (UTF-8), a 16-bit flag word (1 optional, 2 transient, 4 read-only),
///   its `versionHashModifier`;
/// - an attribute: its property hash, its `NSAttributeType` raw value (32 bits), a byte 1 if it
///   allows external binary storage, a byte 1 if it preserves its value in history on deletion;
///   a composite adds its elements' hashes;
/// - a derived attribute: its expression alone, as Core Data renders it (`predicateFormat`):
///   not its name, flags or type, so two derived attributes with one expression hash alike;
/// - a relationship: its property hash, the destination's name, the inverse's name (not when
///   it is its own inverse), `maxCount` and `minCount` (32 bits each, to-one's `maxCount` 1,
///   unbounded 0), a 16-bit 1 if ordered;
/// - an entity: its name, a byte for abstractness, the superentity's hash, the hashes of its
///   stored properties (inherited included, transient left out) sorted by name, its
///   `versionHashModifier`, its uniqueness constraints (each joined by `.`, sorted).
///
/// Indexes are not among the inputs (as in Core Data: an index change alone does not migrate).
/// `ModelVersionHashTests` checks these against every hash Core Data wrote in the real stores.
public enum ModelVersionHash {
    private static func propertyHash(name: String, isOptional: Bool, isTransient: Bool, modifier: String?) -> Data {
        var input = Data(name.utf8)
        let flags: UInt16 = (isOptional ? 1 : 0) | (isTransient ? 2 : 0)
        input.appendLittleEndian(flags)
        input.append(contentsOf: (modifier ?? "").utf8)
        return SHA256.digest(of: input)
    }

    static func hash(of attribute: Attribute, in model: Model) -> Data {
        if attribute.isDerived {
            // The stores CoreDataPlus's SampleModel2 wrote say so: Book's derived `pagesCount`
            // (`pages.@count`) hashes as SHA-256("count:(pages)") alone.
            return SHA256.digest(of: Data(derivationFormat(attribute.derivationExpression ?? "").utf8))
        }
        var input = propertyHash(name: attribute.name, isOptional: attribute.isOptional,
                                 isTransient: attribute.isTransient, modifier: attribute.versionHashModifier)
        input.appendLittleEndian(UInt32(attribute.type.coreDataRawValue))
        if attribute.allowsExternalBinaryDataStorage { input.append(1) }
        if attribute.preserveAfterDeletion { input.append(1) }
        if attribute.type == .composite, let composite = attribute.composite.flatMap(model.composite(named:)) {
            for element in composite.attributes where !element.isTransient { input.append(hash(of: element, in: model)) }
        }
        return SHA256.digest(of: input)
    }

    /// A derivation expression as Core Data's `predicateFormat` renders it: Core Data keeps a
    /// key path ending in `.@count` as the function `count:(path)`, and one ending in `.@sum` or
    /// `.@total` as `sum:(path)`; any other expression is taken as written (its rendering by
    /// Core Data is not checked against a real store, see Docs/RuntimeDifferences.md).
    static func derivationFormat(_ expression: String) -> String {
        let text = expression.trimmingCharacters(in: .whitespaces)
        let isKeyPath = !text.isEmpty && text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." || $0 == "@" }
        guard isKeyPath else { return text }
        for (suffix, function) in [(".@count", "count:"), (".@sum", "sum:"), (".@total", "sum:")] where text.hasSuffix(suffix) {
            return "\(function)(\(text.dropLast(suffix.count)))"
        }
        return text
    }

    static func hash(of relationship: Relationship, declaredIn entityName: String) -> Data {
        var input = propertyHash(name: relationship.name, isOptional: relationship.isOptional,
                                 isTransient: relationship.isTransient, modifier: relationship.versionHashModifier)
        input.append(contentsOf: (relationship.destinationEntity ?? "").utf8)
        let isOwnInverse = relationship.inverseName == relationship.name && relationship.destinationEntity == entityName
        if let inverse = relationship.inverseName, !isOwnInverse { input.append(contentsOf: inverse.utf8) }
        let maxCount = relationship.maxCount ?? (relationship.isToMany ? 0 : 1)
        input.appendLittleEndian(UInt32(truncatingIfNeeded: maxCount))
        input.appendLittleEndian(UInt32(truncatingIfNeeded: relationship.minCount ?? 0))
        if relationship.isOrdered { input.appendLittleEndian(UInt16(1)) }
        return SHA256.digest(of: input)
    }

    static func hash(of property: PropertyDescription, in entity: EntityDescription) -> Data {
        switch property.kind {
        case .attribute(let attribute):
            hash(of: attribute.attribute, in: entity.managedObjectModel.model)
        case .relationship(let relationship):
            hash(of: relationship.relationship, declaredIn: declaringEntity(of: relationship.name, from: entity).name)
        case .fetchedProperty(let fetched):
                // Not stored, so never among the properties hashed; Core Data hashes its name.
                SHA256.digest(of: Data(fetched.name.utf8))
        }
    }

    static func hash(of entity: EntityDescription) -> Data {
        let declared = entity.entity
        var input = Data(declared.name.utf8)
        input.append(declared.isAbstract ? 1 : 0)
        if let superentity = entity.superentity { input.append(hash(of: superentity)) }
        for property in entity.properties.sorted(by: { $0.name < $1.name }) where !isTransient(property) {
            input.append(hash(of: property, in: entity))
        }
        input.append(contentsOf: (declared.versionHashModifier ?? "").utf8)
        for constraint in declared.uniquenessConstraints.map({ $0.joined(separator: ".") }).sorted() {
            input.append(contentsOf: constraint.utf8)
        }
        return SHA256.digest(of: input)
    }

    private static func isTransient(_ property: PropertyDescription) -> Bool {
        switch property.kind {
        case .attribute(let attribute): attribute.isTransient
        case .relationship(let relationship): relationship.isTransient
        case .fetchedProperty: true
        }
    }

    /// The topmost entity among `entity` and its ancestors that declares `property`: an
    /// inherited relationship is its own inverse where it is declared, not in the sub-entity.
    private static func declaringEntity(of property: String, from entity: EntityDescription) -> EntityDescription {
        var declaring = entity
        while let parent = declaring.superentity, parent.propertiesByName[property] != nil { declaring = parent }
        return declaring
    }
}

private extension Data {
    mutating func appendLittleEndian<Value: FixedWidthInteger>(_ value: Value) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}

extension ModelVersionHash {
    /// `NSStoreModelVersionChecksumKey` for entity version hashes by name: base64 of SHA-256
    /// over the hashes in entity name order, as every real store in `shared/stores` with the
    /// key shows.
    package static func checksum(of hashes: [String: Data]) -> String {
        SHA256.digest(of: hashes.keys.sorted().reduce(into: Data()) { $0 += hashes[$1]! }).base64EncodedString()
    }

    /// `NSStoreModelVersionHashesDigest` for entity version hashes by name: base64 of SHA-512
    /// over each entity's name (UTF-8) followed by its hash, in entity name order, as every
    /// real store in `shared/stores` with the key shows.
    package static func digest(of hashes: [String: Data]) -> String {
        SHA512.digest(of: hashes.keys.sorted().reduce(into: Data()) { $0 += Data($1.utf8) + hashes[$1]! }).base64EncodedString()
    }
}

extension ManagedObjectModel {
    /// Each entity's version hash, by entity name. Core Data's `entityVersionHashesByName`.
    public var entityVersionHashesByName: [String: Data] {
        Dictionary(uniqueKeysWithValues: entities.map { ($0.name, ModelVersionHash.hash(of: $0)) })
    }

    /// Core Data's `versionChecksum`, a store's `NSStoreModelVersionChecksumKey`
    /// (SHA-256 of the entity version hashes in entity-name order, in base64).
    public var versionChecksum: String { ModelVersionHash.checksum(of: entityVersionHashesByName) }

    /// A store's `NSStoreModelVersionHashesDigest` (``ModelVersionHash/digest(of:)``).
    package var versionHashesDigest: String { ModelVersionHash.digest(of: entityVersionHashesByName) }

    /// The model's version identifiers (`userDefinedModelVersionIdentifier`). Core Data's `versionIdentifiers`.
    public var versionIdentifiers: Set<String> {
        model.metadata.userDefinedModelVersionIdentifier.map { [$0] } ?? []
    }
}

extension EntityDescription {
    /// Core Data's `versionHash`, computed as ``ModelVersionHash`` describes.
    public var versionHash: Data { ModelVersionHash.hash(of: self) }
}

extension Data {
    var hexadecimal: String { map { String(format: "%02x", $0) }.joined() }
}

/// SHA-256 (FIPS 180-4). Foundation on Linux has no digest and the version hashes need nothing
/// more, so this avoids a cryptography dependency (and its C build) for one function.
enum SHA256 {
    private static let roundConstants: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    static func digest(of message: Data) -> Data {
        var state: [UInt32] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
        var padded = [UInt8](message)
        padded.append(0x80)
        while padded.count % 64 != 56 { padded.append(0) }
        let bitLength = UInt64(message.count) * 8
        for shift in stride(from: 56, through: 0, by: -8) { padded.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        var words = [UInt32](repeating: 0, count: 64)
        for block in stride(from: 0, to: padded.count, by: 64) {
            for index in 0..<16 {
                let offset = block + index * 4
                words[index] = UInt32(padded[offset]) << 24 | UInt32(padded[offset + 1]) << 16
                    | UInt32(padded[offset + 2]) << 8 | UInt32(padded[offset + 3])
            }
            for index in 16..<64 {
                let s0 = words[index - 15].rotatedRight(7) ^ words[index - 15].rotatedRight(18) ^ (words[index - 15] >> 3)
                let s1 = words[index - 2].rotatedRight(17) ^ words[index - 2].rotatedRight(19) ^ (words[index - 2] >> 10)
                words[index] = words[index - 16] &+ s0 &+ words[index - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, h) = (state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7])
            for index in 0..<64 {
                let sum1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
                let choice = (e & f) ^ (~e & g)
                let temp1 = h &+ sum1 &+ choice &+ roundConstants[index] &+ words[index]
                let sum0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
                let majority = (a & b) ^ (a & c) ^ (b & c)
                let temp2 = sum0 &+ majority
                (h, g, f, e, d, c, b, a) = (g, f, e, d &+ temp1, c, b, a, temp1 &+ temp2)
            }
            for (index, value) in [a, b, c, d, e, f, g, h].enumerated() { state[index] = state[index] &+ value }
        }
        var result = Data(capacity: 32)
        for word in state { for shift in stride(from: 24, through: 0, by: -8) { result.append(UInt8(truncatingIfNeeded: word >> UInt32(shift))) } }
        return result
    }
}

private extension UInt32 {
    func rotatedRight(_ count: UInt32) -> UInt32 { (self >> count) | (self << (32 - count)) }
}
