/// Generated code's one door into an object: every generated accessor reads and writes through
/// `self._managedGen` (typed attribute, raw-value, relationship and to-many accessors, snapshot
/// writes), as swift-openapi-generator's code goes through the runtime's `Converter`. The
/// methods are the door's, not the object's, so a model property may have any of their names:
/// the runtime reserves `_managedGen` (and `storedPropertyLayoutHash`, which generated classes
/// override) instead of a member per accessor. A value made per access and dropped with it: the
/// getter is inlinable and the struct is one reference, so an access allocates nothing.
@_spi(Generated) public struct GeneratedObjectAccess {
    /// The object the accessors read and write.
    @usableFromInline let object: ManagedObject

    @inlinable init(_ object: ManagedObject) {
        self.object = object
    }
}

extension ManagedObject {
    /// The door generated accessors reach the runtime through (``GeneratedObjectAccess``).
    @_spi(Generated) @inlinable public final var _managedGen: GeneratedObjectAccess { GeneratedObjectAccess(self) }
}
