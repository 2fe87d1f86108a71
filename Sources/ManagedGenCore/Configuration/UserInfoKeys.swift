/// User-info keys a model can set on a property to steer generation.
public enum UserInfoKeys {
    /// `YES`/`NO`: generate (or not) a non-optional wrapper, whatever the name's suffix.
    public static let wrapper = "managedgen.wrapper"
    /// The wrapper's value when the stored one is `nil` (a Swift expression for the wrapper type,
    /// e.g. `"unknown"` is written as a string literal for String wrappers; numbers as written).
    public static let wrapperDefault = "managedgen.wrapperDefault"
    /// The name of the wrapper, overriding the name minus the suffix.
    public static let wrapperName = "managedgen.wrapperName"
    /// The name of the find-or-insert function for a uniqueness-constrained attribute
    /// (default `with<Name>`), e.g. `withICAO`.
    public static let findOrInsertName = "managedgen.findOrInsertName"
    /// `YES` on a Transformable attribute: its `customClassName` is a Swift `Codable` type of the
    /// app's; the property has that type and the runtime stores it as JSON
    /// (`CodableValueTransformer`, registered by the generated model).
    public static let codable = "managedgen.codable"
    /// On a String or integer attribute: a Swift `RawRepresentable` type (an enum, an option set)
    /// of the app's, whose raw value the attribute stores; the property has that type. Read under
    /// any of these keys, first found first: ManagedGen's, the plain ones, and SwiftGen's.
    public static let swiftTypeKeys = ["managedgen.swiftType", "swiftType", "enumType", "RawType"]
    /// With a Swift type: the value (a Swift expression of the type, e.g. `.unknown`) the
    /// property reads when nothing is stored or the stored raw value is not one of the type's.
    /// A non-optional attribute needs one to be typed non-optional.
    public static let swiftTypeDefaultKeys = ["managedgen.swiftTypeDefault", "swiftTypeDefault"]
    /// On an entity: `YES`/`NO`, whether its class gets a `Snapshot` (overrides the `snapshots` option).
    public static let snapshots = "managedgen.snapshots"
}
