import DataModel
import Foundation

/// The checks `save()` makes, with Core Data's error codes: mandatory properties (1570), value
/// types (1550), number (1610/1620), date (1630/1640) and string-length (1660/1670) bounds,
/// string patterns (1680), to-many counts (1580/1590) and Deny delete rules (1600).
enum Validation {
    /// The problems of an inserted or updated object.
    static func errors(forSaving object: ManagedObject) -> [ManagedObjectError] {
        var errors: [ManagedObjectError] = []
        let entity = object.entity
        let slots = entity.slots
        for index in slots.indices where slots[index].isValidated {
            let slot = slots[index]
            if slot.shape == .attribute {
                // The common case, settled by the slot and the value's type alone: a value of
                // exactly the storage type with nothing more to check, or an optional attribute
                // without a value.
                switch object.attributeStorageType(at: index) {
                case nil: if slot.isOptional { continue }
                case let valueType?: if let plain = slot.plainStorageType, valueType == plain { continue }
                }
                guard case .attribute(let attribute) = entity.properties[index].kind else { continue }
                // Appended only when there are any: most properties of most objects have none.
                let found = self.errors(of: attribute, value: object.attributeStorageValue(at: index), in: object)
                if !found.isEmpty { errors += found }
            } else {
                guard case .relationship(let relationship) = entity.properties[index].kind else { continue }
                let found = self.errors(of: relationship, in: object)
                if !found.isEmpty { errors += found }
            }
        }
        return errors
    }

    /// The problems of deleting an object: relationships whose Deny rule still has objects.
    static func errors(forDeleting object: ManagedObject) -> [ManagedObjectError] {
        object.entity.relationships.filter { $0.deleteRule == .deny }.compactMap { relationship in
            let remaining = object.relatedObjects(relationship).filter { !$0.isDeleted }
            guard !remaining.isEmpty else { return nil }
            return error(.relationshipDeniedDelete,
                         "cannot be deleted while \(relationship.name) has \(remaining.count) object(s) (delete rule Deny)",
                         object, relationship.name, location: relationship.relationship.location)
        }
    }

    private static func errors(
        of attribute: AttributeDescription, value: Any?, in object: ManagedObject
    ) -> [ManagedObjectError] {
        // Called for the attributes `PropertySlot.isValidated` names (not derived ones).
        // `attribute.attribute.…` reads one field; a local copy of the whole `Attribute` would
        // retain and release all of its fields for every value of every saved object.
        guard let value else {
            return attribute.isOptional ? [] : [
                error(.missingMandatoryProperty, "\(attribute.name) is required", object, attribute.name,
                      location: attribute.attribute.location),
            ]
        }
        guard AttributeValues.hasStorageType(value, attribute.type) else {
            return [error(.validation, "\(attribute.name) holds a \(type(of: value)), not a \(attribute.type.rawValue)",
                          object, attribute.name, value: value, location: attribute.attribute.location)]
        }
        // No bound or pattern to check: the value's type was all (most attributes of a model).
        guard attribute.hasValueBounds else { return [] }
        func failure(_ code: ManagedObjectError.Code, _ message: String) -> [ManagedObjectError] {
            [error(code, "\(attribute.name) \(message)", object, attribute.name, value: value, location: attribute.attribute.location)]
        }
        switch attribute.type {
        case .integer16, .integer32, .integer64, .decimal, .double, .float:
            let maximum = attribute.attribute.maxValueString.flatMap(Double.init)
            let minimum = attribute.attribute.minValueString.flatMap(Double.init)
            guard maximum != nil || minimum != nil, let number = ScalarValue.from(value), number.isNumber else { return [] }
            // Compared as predicates and sorts compare numbers: exactly, across types.
            if let max = maximum,
               ValueComparison.compare(number, .double(max), PredicateComparisonOptions()) == .orderedDescending {
                return failure(.numberTooLarge, "is \(value), more than the maximum \(max.formatted)")
            }
            if let min = minimum,
               ValueComparison.compare(number, .double(min), PredicateComparisonOptions()) == .orderedAscending {
                return failure(.numberTooSmall, "is \(value), less than the minimum \(min.formatted)")
            }
        case .date:
            guard let date = value as? Date else { return [] }
            if let max = attribute.attribute.maxDateTimeInterval, date.timeIntervalSinceReferenceDate > max {
                return failure(.dateTooLate, "is \(date), later than \(Date(timeIntervalSinceReferenceDate: max))")
            }
            if let min = attribute.attribute.minDateTimeInterval, date.timeIntervalSinceReferenceDate < min {
                return failure(.dateTooSoon, "is \(date), earlier than \(Date(timeIntervalSinceReferenceDate: min))")
            }
        case .string:
            guard let string = value as? String else { return [] }
            let length = string.utf16.count
            if let max = attribute.attribute.maxValueString.flatMap(Int.init), length > max {
                return failure(.stringTooLong, "is \(length) characters long, more than \(max)")
            }
            if let min = attribute.attribute.minValueString.flatMap(Int.init), length < min {
                return failure(.stringTooShort, "is \(length) characters long, fewer than \(min)")
            }
            if let pattern = attribute.attribute.regularExpressionString, !pattern.isEmpty, !matches(string, pattern) {
                return failure(.stringPatternMatching, "does not match the pattern \(pattern)")
            }
        default:
            break
        }
        return []
    }

    private static func errors(of relationship: RelationshipDescription, in object: ManagedObject) -> [ManagedObjectError] {
        let location = relationship.relationship.location
        guard relationship.isToMany else {
            guard !relationship.isOptional, object.resolvedToOne(at: relationship.index) == nil else { return [] }
            return [error(.missingMandatoryProperty, "\(relationship.name) is required", object, relationship.name,
                          location: location)]
        }
        // A to-many without count bounds never comes here (`PropertySlot.isValidated`),
        // so its members are not read from the store for nothing.
        let count = object.resolvedToMany(at: relationship.index).count
        // As in Core Data, an empty optional to-many is valid whatever its minimum, and a
        // required one is held to its declared minimum alone: without `minCount` it may be empty.
        if count == 0 && relationship.isOptional { return [] }
        let minimum = relationship.minCount ?? 0
        if count < minimum {
            return [error(.relationshipLacksMinimumCount,
                          "\(relationship.name) has \(count) object(s), fewer than the minimum \(minimum)",
                          object, relationship.name, location: location)]
        }
        if let maximum = relationship.maxCount, maximum > 0, count > maximum {
            return [error(.relationshipExceedsMaximumCount,
                          "\(relationship.name) has \(count) object(s), more than the maximum \(maximum)",
                          object, relationship.name, location: location)]
        }
        return []
    }

    /// Whether the whole string matches, as Core Data's `MATCHES` does.
    private static func matches(_ string: String, _ pattern: String) -> Bool {
        guard let expression = try? NSRegularExpression(pattern: "^(?:\(pattern))$") else { return false }
        let range = NSRange(string.startIndex..., in: string)
        return expression.firstMatch(in: string, range: range) != nil
    }

    private static func error(
        _ code: ManagedObjectError.Code, _ message: String, _ object: ManagedObject, _ key: String,
        value: Any? = nil, location: SourceLocation?
    ) -> ManagedObjectError {
        var error = ManagedObjectError(
            code, "\(object.entity.name).\(message)" + (location.map { " (model: \($0))" } ?? ""),
            entityName: object.entity.name, objectID: object.objectID, key: key,
            value: value.map { String(describing: $0) })
        error.object = object
        return error
    }
}

private extension Double {
    /// `5` rather than `5.0` for whole bounds.
    var formatted: String {
        rounded() == self && abs(self) < 1e15 ? String(Int64(self)) : String(self)
    }
}
