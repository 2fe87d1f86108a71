import DataModel
import Foundation

/// An attribute at run time: the model's attribute, its property index and its parsed default.
/// Core Data's `NSAttributeDescription`. `init()` makes a draft (see ``PropertyDescription``).
public final class AttributeDescription: PropertyDescription, @unchecked Sendable {
    /// The model's attribute; a draft's setters change it.
    @exclusivity(unchecked) public private(set) var attribute: Attribute
    /// The model's default value in the storage type, or `nil` when there is none or it
    /// cannot be read as the attribute's type.
    @exclusivity(unchecked) @_spi(CoreData) public private(set) var storedDefaultValue: (any Sendable)?
    /// The type of a default value set on a draft that a model cannot hold (it holds numbers,
    /// strings, Booleans, dates, UUIDs and URLs): using the model reports it.
    private(set) var unrepresentableDefaultType: Any.Type?
    /// Whether the model bounds the attribute's values (a maximum or minimum of a number, a
    /// date or a string's length, a string pattern): only then does validation look further
    /// than a value's type, for each value of every saved object.
    @exclusivity(unchecked) private(set) var hasValueBounds = false
    /// A derived attribute's derivation (`NSDerivedAttributeDescription.derivationExpression`),
    /// parsed once; the error names what is wrong with one that does not parse, and a save of
    /// the entity throws it. `nil` for an attribute that is not derived.
    @exclusivity(unchecked) private(set) var derivation: Result<ObjectExpression, ObjectPredicateError>?
    /// The first key of each key path the derivation reads (`items` of `items.@sum.price`): a
    /// change to an object reached through one of these relationships recomputes it.
    @exclusivity(unchecked) private(set) var derivationKeys: Set<String> = []
    /// The name a ``CodableValueTransformer`` for the attribute's `customClassName` is registered
    /// under, made once: a save looks it up for each object's Transformable value.
    @exclusivity(unchecked) private(set) var codableTransformerName: ValueTransformerName?

    init(_ attribute: Attribute, index: Int) {
        self.attribute = attribute
        super.init(tag: .attribute, index: index, isDraft: false)
        deriveValues()
    }

    /// A draft attribute: no name, type `.undefined`, optional (Core Data's defaults).
    public init() {
        attribute = Attribute(name: "", type: .undefined, isOptional: true)
        super.init(tag: .attribute, index: -1, isDraft: true)
    }

    /// Takes the attribute as its model holds it, at its property index: a draft becomes the
    /// runtime form of its model's attribute.
    func adopt(_ attribute: Attribute, index: Int) {
        self.attribute = attribute
        self.index = index
        deriveValues()
    }

    /// Applies `mutate` to a draft's attribute; logs and ignores it otherwise.
    @_spi(CoreData) public func change(_ key: String, _ mutate: (inout Attribute) -> Void) {
        guard isEditable else { return ModelEditing.ignore(key, of: description) }
        mutate(&attribute)
        deriveValues()
    }

    /// Works out what the runtime reads of the attribute on every save, from `attribute`.
    private func deriveValues() {
        codableTransformerName = attribute.customClassName.map(ValueTransformerName.codable(className:))
        storedDefaultValue = AttributeValues.defaultValue(of: attribute)
        if attribute.isDerived {
            let format = attribute.derivationExpression ?? ""
            do {
                let syntax = try PredicateExpressionSyntax(parsing: format)
                derivationKeys = Set(syntax.keyPaths.compactMap { $0.split(separator: ".").first.map(String.init) })
                derivation = Result { () throws(ObjectPredicateError) in try ObjectExpression(syntax: syntax) }
            } catch {
                derivationKeys = []
                derivation = .failure(ObjectPredicateError(format: format, message: error.message, column: error.column))
            }
        } else {
            derivation = nil
            derivationKeys = []
        }
        switch attribute.type {
        case .integer16, .integer32, .integer64, .decimal, .double, .float:
            hasValueBounds = attribute.maxValueString != nil || attribute.minValueString != nil
        case .date:
            hasValueBounds = attribute.maxDateTimeInterval != nil || attribute.minDateTimeInterval != nil
        case .string:
            hasValueBounds = attribute.maxValueString != nil || attribute.minValueString != nil
                || !(attribute.regularExpressionString ?? "").isEmpty
        default:
            hasValueBounds = false
        }
    }

    public var type: AttributeType {
        get { attribute.type }
        set { change("type") { $0.type = newValue } }
    }

    /// The default value a new object starts with, in the storage type (`nil`: none). Set on a
    /// draft, a number, string, Boolean, date, UUID or URL is kept as the model keeps defaults
    /// (and read back in the attribute's storage type); another value makes using the model
    /// throw, naming the attribute.
    public var defaultValue: (any Sendable)? {
        get { storedDefaultValue }
        set { setDefaultValue(newValue) }
    }

    /// ``defaultValue``'s setter for a value of any type (Core Data's `defaultValue: Any?`).
    public func setDefaultValue(_ value: Any?) {
        change("defaultValue") { attribute in
            attribute.defaultValueString = nil
            attribute.defaultDateTimeInterval = nil
            unrepresentableDefaultType = nil
            guard let value else { return }
            if let date = value as? Date {
                attribute.defaultDateTimeInterval = date.timeIntervalSinceReferenceDate
            } else if let text = Self.modelText(of: value) {
                attribute.defaultValueString = text
            } else {
                unrepresentableDefaultType = Swift.type(of: value)
            }
        }
    }

    /// A default value as a model file writes it (`defaultValueString`).
    private static func modelText(of value: Any) -> String? {
        switch value {
        case let flag as Bool: flag ? "YES" : "NO"
        case let text as String: text
        case let number as any BinaryInteger: "\(number)"
        case let number as Double: "\(number)"
        case let number as Float: "\(number)"
        case let number as Decimal: "\(number)"
        case let number as NSNumber: number.stringValue
        case let uuid as UUID: uuid.uuidString
        case let url as URL: url.absoluteString
        default: nil
        }
    }

    public override var description: String { "AttributeDescription(\(name): \(type.rawValue))" }
}
