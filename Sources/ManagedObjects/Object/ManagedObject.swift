import Foundation

/// An instance of an entity. Core Data's `NSManagedObject`; generated classes subclass it.
///
/// Values are stored by property index (`Model.storedProperties(of:)`): generated accessors
/// reach them with the index-based methods (`attributeValue(at:)`, `toOneRelationship(at:)`,
/// …), key-value coding (`value(forKey:)`) looks the index up by name. An object belongs to at
/// most one context and, like the context, is used only on that context's queue.
///
/// A fetched object is a fault (only its ID) until a persistent property is used; then it reads
/// its values from the coordinator's row cache or the store, and its relationships the first
/// time they are used.
open class ManagedObject: KeyValueCoding, Hashable, Identifiable, CustomStringConvertible {
    /// The entity this class stands for. Generated classes override it; the default is the
    /// class's own name.
    open class var entityName: String {
        String(describing: self)
    }

    /// The fingerprint of the entity layout a generated class reaches its values by
    /// (`Model.storedPropertyLayoutHash(of:)`); `nil` for classes people write. Binding a class to
    /// an entity of another layout is refused (``ManagedObjectModel/classBindingErrors``).
    @_spi(Generated) open class var storedPropertyLayoutHash: UInt64? { nil }

    public let entity: EntityDescription
    /// A temporary ID until the object is first saved, then the store's permanent ID.
    @exclusivity(unchecked) public internal(set) var objectID: ManagedObjectID

    // An object's state is used on its context's queue only, so two accesses never overlap;
    // the dynamic exclusivity checks Swift would otherwise make on each use of a class's stored
    // property (about 200 instructions each, a tenth of a large insert and save) are left out.
    //
    // What each pass of a large save reads of every object comes first, beside the reference
    // count and the ID (stored properties are laid out in order): such a pass touches a cache
    // line or two of each object rather than three or four.
    /// The stamp of the context's latest `callWillSave()` that called `willSave()` on the
    /// object (`ManagedObjectContext.willSaveStamp`).
    @exclusivity(unchecked) var willSaveStamp: UInt32 = 0
    @exclusivity(unchecked) public internal(set) var isInserted = false
    @exclusivity(unchecked) public internal(set) var isUpdated = false
    @exclusivity(unchecked) public internal(set) var isDeleted = false
    /// Whether the context has this object among the changes its next objects-did-change
    /// notification announces.
    @exclusivity(unchecked) var hasUnannouncedChange = false
    /// Whether `storage` holds the object's values (see `prepareValues()`).
    @exclusivity(unchecked) private(set) var state: State
    /// The object's place among its entity's new objects in the save that gives it its
    /// permanent ID, with that save's stamp (`ManagedObjectContext.saveStamp`): it counts only
    /// while that save is under way, so no pass over the objects clears it afterwards.
    @exclusivity(unchecked) var newObjectPlace: (save: UInt32, place: UInt32) = (0, 0)
    /// The values by property index, behind `values`.
    @exclusivity(unchecked) private var storage: [Any?] = []
    /// The object's slot in the context's change list that holds it (`ChangeList`).
    @exclusivity(unchecked) var changeListSlot = Int.max

    /// The context the object is registered in; `nil` once deleted and saved, after `reset()`,
    /// or for an object created with `insertInto: nil`.
    public internal(set) var managedObjectContext: ManagedObjectContext? {
        get { contextReference }
        // From the new value, not the reference: loading a weak reference retains and releases
        // the context, on the slow path of an object with weak references (each insert).
        set {
            contextReference = newValue
            contextIdentity = newValue.map(ObjectIdentifier.init)
        }
    }
    // Not `@exclusivity(unchecked)` like the object's other state: on a weak reference the
    // attribute broke the context's weak references (Swift 6.x; a crash in a later weak load).
    private weak var contextReference: ManagedObjectContext?
    /// The identity of the context last set, for the checks that only compare contexts: a
    /// weak load (with its exclusivity check) cost more than the rest of such a check. Two
    /// objects with the same identity are in the same context or in none alive any more (a
    /// context's identity outlives it), so where that difference matters the weak reference
    /// decides.
    @exclusivity(unchecked) private(set) var contextIdentity: ObjectIdentifier?

    /// One slot per property index: an attribute's value in its storage type, a to-one's
    /// object, a to-many's `OrderedSet<ManagedObject>`, or a `PendingRelationship` (IDs read
    /// from the store, turned into objects on first use). Reading or writing it fires a fault.
    var values: [Any?] {
        get {
            if state != .loaded { prepareValues() }
            return storage
        }
        _modify {
            if state != .loaded { prepareValues() }
            yield &storage
        }
    }

    /// Objects still to be appended to to-manys of this new object, in the order they came
    /// (`State.loadedWithDeferredAppends`).
    @exclusivity(unchecked) private var deferredToManyAppends: [(index: Int, objects: [ManagedObject])] = []
    /// The values and version last read from or saved to the store; `nil` until then.
    @exclusivity(unchecked) var committedSnapshot: StoredObject?
    /// The row cache this object holds one use of its row in, if any (released in `deinit` and
    /// when the object turns back into a fault).
    @exclusivity(unchecked) var rowCacheUse: RowCache?
    /// The batch of a fetch with a `fetchBatchSize` this fault fires with.
    @exclusivity(unchecked) var faultBatch: FaultBatch?

    enum State {
        /// `storage` holds the values.
        case loaded
        /// `storage` holds the values but for objects that inverse maintenance appended to
        /// its to-manys, kept aside in `deferredToManyAppends` until the values are next used.
        /// Only while the object is new and its insert not announced, so no change is recorded:
        /// filling in many new objects related to a few (each tweet's user gets the tweet)
        /// appends to a short list instead of hashing into a set that is cold in the cache,
        /// and each set then takes its objects in one go.
        case loadedWithDeferredAppends
        /// A fired fault not written to: the values are `committedSnapshot`'s and `storage` is
        /// empty until the whole array is needed (`values`), so an object that is only read
        /// keeps one copy of its row, the row cache's.
        case committed
        /// A fault: the values are in the store (or the row cache) until a property is used.
        case fault
        /// A new object not inserted anywhere yet: it gets the model's defaults when first used.
        case unset
    }


    /// Makes an object of `entity` and, given a context, inserts it there (then
    /// `awakeFromInsert()` runs). Attributes start at the model's defaults.
    public required init(entity: EntityDescription, insertInto context: ManagedObjectContext?) {
        self.entity = entity
        self.objectID = .temporary(for: entity)
        self.state = .unset
        if let context {
            context.insert(self)
        }
    }

    /// A fault for a stored object: no values until a property is used.
    static func fault(for objectID: ManagedObjectID, in context: ManagedObjectContext) -> ManagedObject {
        let object = objectID.entity.managedObjectClass.init(entity: objectID.entity, insertInto: nil)
        object.objectID = objectID
        object.managedObjectContext = context
        object.state = .fault
        return object
    }

    deinit {
        rowCacheUse?.release(objectID)
        managedObjectContext?.objectWasReleased(self)
    }

    /// Fills `storage`: a fault fires (its context reads the row cache or the store), a new
    /// object takes the model's defaults.
    private func prepareValues() {
        if state == .fault { fireFault() }
        switch state {
        case .loaded, .fault:
            return
        case .loadedWithDeferredAppends:
            state = .loaded
            appendDeferredObjects()
        case .committed:
            guard let snapshot = committedSnapshot else {
                state = .loaded
                storage = entity.properties.map(\.emptyValue)
                return
            }
            load(snapshot)
        case .unset:
            state = .loaded
            storage = entity.makeInitialValues()
        }
    }

    /// Appends to a to-many of this new object later, when its values are next used: see
    /// `State.loadedWithDeferredAppends`. `false` (nothing done) when the object is not new and
    /// unannounced with its values loaded.
    final func deferAppend(_ object: ManagedObject, toManyAt index: Int) -> Bool {
        guard isNewAndUnannounced, state == .loaded || state == .loadedWithDeferredAppends else { return false }
        state = .loadedWithDeferredAppends
        if let entry = deferredToManyAppends.firstIndex(where: { $0.index == index }) {
            deferredToManyAppends[entry].objects.append(object)
        } else {
            deferredToManyAppends.append((index, [object]))
        }
        return true
    }

    /// Appends the deferred objects, each to-many in one go, in the order they came. An object
    /// already there stays where it is, as when appended at once. An empty set takes the list
    /// itself when its objects are distinct (`OrderedSet`'s initializer keeps an array's
    /// storage): no copy of each reference, which would touch every object again.
    private func appendDeferredObjects() {
        let appends = deferredToManyAppends
        deferredToManyAppends = []
        for (index, objects) in appends {
            modifyToMany(at: index) { set in
                if set.isEmpty {
                    set = OrderedSet(objects)
                } else {
                    set.append(contentsOf: objects)
                }
            }
        }
    }

    /// Fires the object if it is a fault, as Core Data fires a fault it deletes: the delete is
    /// sent with the version of the row it read.
    func fireFaultIfNeeded() {
        if state == .fault { fireFault() }
    }

    /// Reads a fault's values (from the row cache or the store) as its committed snapshot.
    private func fireFault() {
        // Still a fault while the row is found: a batch read caches rows for faults only.
        let snapshot = managedObjectContext?.snapshotForFiringFault(of: self)
        if let snapshot {
            committedSnapshot = snapshot
            state = .committed
        } else {
            // The stored object is gone (another context or process deleted it): the
            // object reads as empty, and `existingObject(with:)` throws 133000 for its ID; the
            // context marks it deleted (`shouldDeleteInaccessibleFaults`).
            state = .loaded
            storage = entity.properties.map(\.emptyValue)
            managedObjectContext?.faultWasInaccessible(self)
        }
        awakeFromFetch()
    }

    /// Turns the object back into a fault: its values are dropped and read again when next
    /// used. Transient values are dropped too.
    func turnIntoFault() {
        guard state == .loaded || state == .committed, !isInserted else { return }
        willTurnIntoFault()
        storage = []
        committedSnapshot = nil
        rowCacheUse?.release(objectID)
        rowCacheUse = nil
        state = .fault
        didTurnIntoFault()
    }

    /// Inserts a new object of this class's entity (`entityName`) into `context`.
    public convenience init(context: ManagedObjectContext) {
        let model = context.managedObjectModel
        guard let entity = model.entity(for: Self.self) else {
            preconditionFailure(
                "\(Self.self): the context's model has no entity named '\(Self.entityName)'")
        }
        self.init(entity: entity, insertInto: context)
    }

    /// Whether the object has unsaved changes: inserted, updated or deleted.
    public var hasChanges: Bool { isInserted || isUpdated || isDeleted }

    /// Whether the object is a fault: its values are not loaded yet, and using a persistent
    /// property reads them (from the coordinator's row cache or the store).
    public var isFault: Bool { state == .fault }

    // MARK: Lifecycle hooks

    /// Called once, when the object is first inserted into a context.
    open func awakeFromInsert() {}
    /// Called when the object's values are read from the store: when a fault fires (or a
    /// fetch that loads values makes the object).
    open func awakeFromFetch() {}
    /// Called before the object turns into a fault (`refresh(_:mergeChanges: false)`).
    open func willTurnIntoFault() {}
    /// Called after the object turned into a fault.
    open func didTurnIntoFault() {}
    /// Called when the object is deleted, before its delete rules are applied.
    open func prepareForDeletion() {}
    /// Called at the start of a save, for each inserted, updated or deleted object. Changes
    /// made here are saved too.
    open func willSave() {}
    /// Called after a successful save, for each object that was saved or deleted.
    open func didSave() {}

    // MARK: Identity

    // `Identifiable`'s `id` comes from the standard library's extension for classes (an
    // `ObjectIdentifier`), as `NSManagedObject` gets it, so a subclass may declare its own `id`.

    public static func == (lhs: ManagedObject, rhs: ManagedObject) -> Bool { lhs === rhs }

    public final func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }

    open var description: String {
        let state = isDeleted ? " (deleted)" : isInserted ? " (inserted)" : isUpdated ? " (updated)" : ""
        return "<\(type(of: self)) \(objectID)\(state)>"
    }

    // MARK: Change tracking

    /// Records that a stored value is about to change.
    func willChangeValue(at index: Int) {
        // A new object whose insert is still to be announced has nothing more to record: the
        // common case of filling in new objects, without reaching the context (a weak reference).
        if isNewAndUnannounced { return }
        managedObjectContext?.objectWillChange(self)
    }

    /// Inserted, and the insert not announced yet: a change to it is part of the insert.
    private var isNewAndUnannounced: Bool { isInserted && hasUnannouncedChange }

    /// The property at `index`, trapping with the entity and index when it is not one.
    func property(at index: Int) -> PropertyDescription {
        checkPropertyIndex(index)
        return entity.properties[index]
    }

    /// The slot of the property at `index` (`EntityDescription.slots`), trapping as
    /// `property(at:)` does.
    final func slot(at index: Int) -> PropertySlot {
        checkPropertyIndex(index)
        return entity.slots[index]
    }

    private func checkPropertyIndex(_ index: Int) {
        guard entity.properties.indices.contains(index) else {
            preconditionFailure("\(entity.name) has no property at index \(index)")
        }
    }

    func relationshipDescription(at index: Int) -> RelationshipDescription {
        guard case .relationship(let relationship) = property(at: index).kind else {
            preconditionFailure("\(entity.name).\(property(at: index).name) is not a relationship")
        }
        return relationship
    }

    // MARK: Attributes by index (generated accessors)

    /// The attribute at `index` in its storage type, or `nil`.
    public func attributeValue<Value>(at index: Int) -> Value? {
        attributeStorageValue(at: index).flatMap(Self.cast)
    }

    /// The attribute at `index` as stored, read from the committed snapshot while the object
    /// has not been written to (see `State.committed`).
    func attributeStorageValue(at index: Int) -> Any? {
        readingAttribute(at: index) { copy $0 }
    }

    /// The type the attribute at `index` is stored as, `nil` when it has no value: what
    /// validation looks at first, to recognise a value of exactly its attribute's storage
    /// type. For a value type that is its dynamic type; a class instance may have been stored
    /// as one of its superclasses, which such a check treats as any other type.
    func attributeStorageType(at index: Int) -> Any.Type? {
        if let type = storedTypeInPlace(at: index) { return type }
        return readingAttribute(at: index) { value in value.map { type(of: $0) } }
    }

    /// Changes the value at `index` where it lies, when it is exactly a `Value` held inside its
    /// `Any?` (of three words or less): no copy out and back in, which adding one object to a
    /// to-many cost more than the adding. `false`, with nothing changed, otherwise. `Value` is
    /// made of references and plain data (no weak references), which Swift keeps inside the
    /// `Any?` when it fits.
    final func modifyInPlace<Value>(at index: Int, as type: Value.Type, _ change: (inout Value) -> Void) -> Bool {
        guard MemoryLayout<Value>.size <= Self.valueBufferSize,
              MemoryLayout<Value>.alignment <= MemoryLayout<UnsafeRawPointer>.alignment,
              let storedType = storedTypeInPlace(at: index), storedType == Value.self else { return false }
        storage.withUnsafeMutableBufferPointer { values in
            UnsafeMutableRawPointer(values.baseAddress! + index).withMemoryRebound(to: Value.self, capacity: 1) {
                change(&$0.pointee)
            }
        }
        return true
    }

    // Reading an `Any?` in place relies on Swift's stable ABI layout: three words of value
    // buffer (a value that fits is kept there), then the type's metadata, null for `nil`.
    // `typeFieldIsReadable` checks the sizes when compiling; the tests check the rest.

    /// The type the value at `index` of a loaded object is stored as, read from its `Any?`
    /// where it lies (no copy of the value, no `type(of:)`): `.some(nil)` for no value, `nil`
    /// when it cannot be read so (the object is not loaded, or `Any?` is laid out otherwise).
    private func storedTypeInPlace(at index: Int) -> Any.Type?? {
        guard state == .loaded, Self.typeFieldIsReadable, storage.indices.contains(index) else { return nil }
        return storage.withUnsafeBufferPointer { values in
            UnsafeRawPointer(values.baseAddress! + index)
                .load(fromByteOffset: Self.valueBufferSize, as: UnsafeRawPointer?.self)
                .map { unsafeBitCast($0, to: Any.Type.self) }
        }
    }

    private static var valueBufferSize: Int { 3 * MemoryLayout<UnsafeRawPointer>.size }

    private static var typeFieldIsReadable: Bool {
        MemoryLayout<Any?>.size == valueBufferSize + MemoryLayout<UnsafeRawPointer>.size
    }

    /// Passes `body` the attribute at `index` where it is: in the committed snapshot while the
    /// object has not been written to, in `storage` otherwise (a fault fires first).
    @inline(__always)
    private func readingAttribute<Result>(at index: Int, _ body: (borrowing Any?) -> Result) -> Result {
        if state == .fault { fireFault() }
        if state == .committed, case .attribute(let value)? = committedSnapshot?.values[index] {
            return body(value)
        }
        if state != .loaded { prepareValues() }
        return body(storage[index])
    }

    /// A stored value as `Value`: a comparison of type metadata when it is stored as exactly
    /// that type (the generated accessors' case), a dynamic cast otherwise.
    @inline(__always)
    static func cast<Value>(_ value: Any) -> Value? {
        func open<Stored>(_ stored: Stored) -> Value? {
            Stored.self == Value.self ? unsafeBitCast(stored, to: Value.self) : stored as? Value
        }
        return _openExistential(value, do: open)
    }

    /// `value` when it is stored as exactly `Value`: a metadata comparison only. For a type only
    /// ever stored as itself (`PendingRelationship`), where a failed dynamic cast of a related
    /// object cost more than the rest of a save's work on the relationship.
    @inline(__always)
    static func exactly<Value>(_ value: Any, _: Value.Type) -> Value? {
        func open<Stored>(_ stored: Stored) -> Value? {
            Stored.self == Value.self ? unsafeBitCast(stored, to: Value.self) : nil
        }
        return _openExistential(value, do: open)
    }

    /// Sets the attribute at `index`, marking the object updated when the value changes: the
    /// generated accessors' case, compared without boxing when the value is stored as `Value`.
    public func setAttributeValue<Value: Equatable>(_ value: Value?, at index: Int) {
        if state != .loaded { prepareValues() }
        // A new object being filled in before its insert is announced has no change to record
        // (`willChangeValue(at:)`), so the current value need not be read and compared.
        if !isNewAndUnannounced {
            switch (storage[index], value) {
            case (nil, nil):
                return
            case (let current?, let value?):
                if let current: Value = Self.cast(current), current == value { return }
            default:
                break
            }
            willChangeValue(at: index)
        }
        storage[index] = value.map { $0 as Any }
    }

    /// Sets the attribute at `index`, marking the object updated when the value changes.
    public func setAttributeValue<Value>(_ value: Value?, at index: Int) {
        let newValue: Any? = value.map { $0 as Any }
        guard !ValueComparison.equal(values[index], newValue) else { return }
        willChangeValue(at: index)
        values[index] = newValue
    }

    // MARK: Key-value coding

    /// The value of a property by name: an attribute's value, a to-one's object, a to-many's
    /// `Set<ManagedObject>` (ordered: `OrderedSet<ManagedObject>`). `nil` for an unknown key.
    /// Numbers and Booleans come as `NSNumber`, as in Core Data, so `as? Int`, `as? Double`,
    /// `as? Bool` and `as? NSNumber` all read them (an `Int64` in `Any` would not cast to `Int`).
    /// Disfavored: in code that imports CoreData, its `value(forKey:)` (a to-many as `NSSet`/
    /// `NSOrderedSet`) is chosen, even where ManagedObjects is imported too.
    @_disfavoredOverload
    open func value(forKey key: String) -> Any? {
        Self.keyValueCodingValue(storedValue(forKey: key))
    }

    /// A number or Boolean as the `NSNumber` Core Data's key-value coding gives; anything else
    /// as it is.
    static func keyValueCodingValue(_ value: Any?) -> Any? {
        switch value {
        case let number as Int16: NSNumber(value: number)
        case let number as Int32: NSNumber(value: number)
        case let number as Int64: NSNumber(value: number)
        case let number as Int: NSNumber(value: number)
        case let number as Double: NSNumber(value: number)
        case let number as Float: NSNumber(value: number)
        case let flag as Bool: NSNumber(value: flag)
        default: value
        }
    }

    /// The value of a property by name with its attribute's Swift type (`Int16`, `Double`, …),
    /// as predicates and sort descriptors read it.
    public func storedValue(forKey key: String) -> Any? {
        guard let property = entity.propertiesByName[key] else { return nil }
        switch property.kind {
        case .attribute(let attribute):
            return attributeStorageValue(at: attribute.index)
        case .relationship(let relationship):
            if !relationship.isToMany { return resolvedToOne(at: relationship.index) }
            let objects = resolvedToMany(at: relationship.index)
            return relationship.isOrdered ? objects : Set(objects)
        case .fetchedProperty: return nil  // not stored: never in propertiesByName of an entity in use
        }
    }

    /// Sets a property by name. Numbers are converted to the attribute's storage type (an
    /// `Int` on an Integer 16 attribute is stored as `Int16`); a relationship takes an object
    /// or a sequence of objects and keeps the inverse in step. Traps on an unknown key, as
    /// Core Data raises.
    open func setValue(_ value: Any?, forKey key: String) {
        guard let property = entity.propertiesByName[key] else {
            preconditionFailure("\(entity.name) has no property named '\(key)'")
        }
        switch property.kind {
        case .attribute(let attribute):
            setAttributeValue(value.flatMap { AttributeValues.coerce($0, to: attribute.type) ?? $0 },
                              at: attribute.index)
        case .relationship(let relationship):
            if !relationship.isToMany {
                setToOneRelationship(value as? ManagedObject, at: relationship.index)
            } else {
                setRelatedObjects(OrderedSet(Self.objects(in: value)), relationship)
            }
        case .fetchedProperty: break  // not stored: never in propertiesByName of an entity in use
        }
    }

    /// The value at a dotted key path, read by the same compiled key path predicates and sort
    /// descriptors use. A to-one step continues with its object; a to-many step continues with
    /// each object and yields their values as an array, flattened, each once through an
    /// unordered relationship (Core Data yields a set). A collection operator (`@count`, `@sum`,
    /// `@avg`, `@min`, `@max`, `@unionOfObjects`, `@distinctUnionOfObjects`, `@unionOfArrays`,
    /// `@distinctUnionOfArrays`, `@distinctUnionOfSets`) works on the values before it, each
    /// read further through the keys after it (`tweets.@max.created`).
    public func value(forKeyPath keyPath: String) -> Any? {
        Self.keyValueCodingValue(CompiledKeyPath(keyValuePath: keyPath).keyValue(of: self))
    }

    /// Sets the value at a dotted key path: the last key on the object the rest leads to.
    public func setValue(_ value: Any?, forKeyPath keyPath: String) {
        var keys = keyPath.split(separator: ".").map(String.init)
        guard let last = keys.popLast() else { return }
        let target = keys.isEmpty ? self : self.value(forKeyPath: keys.joined(separator: ".")) as? ManagedObject
        target?.setValue(value, forKey: last)
    }

    /// The stored value of a property without conversion: for relationships, the object or
    /// `OrderedSet<ManagedObject>`. Disfavored, as `value(forKey:)` is, for the CoreData
    /// module's (`NSSet`/`NSOrderedSet`).
    @_disfavoredOverload
    public func primitiveValue(forKey key: String) -> Any? {
        guard let property = entity.propertiesByName[key] else { return nil }
        switch property.kind {
        case .attribute(let attribute): return attributeStorageValue(at: attribute.index)
        case .relationship(let relationship):
            return relationship.isToMany
                ? resolvedToMany(at: relationship.index) : resolvedToOne(at: relationship.index)
        case .fetchedProperty: return nil  // not stored: never in propertiesByName of an entity in use
        }
    }

    /// Stores a value as it is: no conversion and, for relationships, no inverse maintenance.
    /// The change is recorded and saved.
    public func setPrimitiveValue(_ value: Any?, forKey key: String) {
        guard let property = entity.propertiesByName[key] else {
            preconditionFailure("\(entity.name) has no property named '\(key)'")
        }
        willChangeValue(at: property.index)
        switch property.kind {
        case .attribute:
            values[property.index] = value
        case .relationship(let relationship):
            if relationship.isToMany {
                values[property.index] = OrderedSet(Self.objects(in: value))
            } else {
                values[property.index] = value as? ManagedObject
            }
        case .fetchedProperty: break  // not stored: never in propertiesByName of an entity in use
        }
    }

    static func objects(in value: Any?) -> [ManagedObject] {
        guard let value else { return [] }
        if let objects = value as? OrderedSet<ManagedObject> { return Array(objects) }
        guard let sequence = value as? any Sequence else {
            return (value as? ManagedObject).map { [$0] } ?? []
        }
        return sequence.compactMap { $0 as? ManagedObject }
    }

    // MARK: Changes

    /// The properties changed since the object was last read or saved, by name (for an
    /// inserted object, every property that has a value). Relationships give objects; a
    /// value changed to `nil` is `NSNull()`, as in Core Data.
    public func changedValues() -> [String: Any] {
        var changes: [String: Any] = [:]
        for property in entity.properties where hasChangedValue(at: property.index) {
            changes[property.name] = value(forKey: property.name) ?? NSNull()
        }
        return changes
    }

    /// The values last read from or saved to the store, for `keys` (all properties when
    /// `nil`). Empty for an object never saved. Relationships give objects; `nil` is `NSNull()`.
    public func committedValues(forKeys keys: [String]?) -> [String: Any] {
        if isFault { prepareValues() }
        guard let snapshot = committedSnapshot else { return [:] }
        var result: [String: Any] = [:]
        for property in entity.properties where keys?.contains(property.name) ?? true {
            switch snapshot.values[property.index] {
            case .attribute(let value):
                result[property.name] = value ?? NSNull()
            case .toOne(let id):
                result[property.name] = id.flatMap { managedObjectContext?.registeredOrStoredObject(with: $0) }
                    ?? NSNull()
            case .toMany, .toManyFault:
                var ids: [ManagedObjectID] = []
                if case .toMany(let stored) = snapshot.values[property.index] {
                    ids = stored
                } else if case .relationship(let relationship) = property.kind {
                    ids = managedObjectContext?.relatedObjectIDs(of: self, relationship: relationship) ?? []
                }
                let objects = ids.compactMap { managedObjectContext?.registeredOrStoredObject(with: $0) }
                result[property.name] = (property.relationshipIsOrdered
                    ? OrderedSet(objects) as Any : Set(objects) as Any)
            }
        }
        return result
    }

    /// The indexes of the stored properties whose values in `stored` (this object's snapshot
    /// for a save) differ from the committed snapshot: every stored property without one.
    func changedPropertyIndexes(in stored: StoredObject) -> [Int] {
        let transient = Set(entity.transientIndexes)
        let indexes = entity.properties.indices.filter { !transient.contains($0) }
        guard let committed = committedSnapshot else { return indexes }
        return indexes.filter { index in
            !stored.values[index].isSame(as: committed.values[index], ordered: property(at: index).relationshipIsOrdered)
        }
    }

    /// Whether the property at `index` differs from the committed snapshot.
    func hasChangedValue(at index: Int) -> Bool {
        let current = storedValue(at: index, id: \.objectID)
        guard let snapshot = committedSnapshot else {
            switch current {
            case .attribute(let value): return value != nil
            case .toOne(let id): return id != nil
            case .toMany(let ids): return !ids.isEmpty
            case .toManyFault: return false
            }
        }
        return !current.isSame(as: snapshot.values[index], ordered: property(at: index).relationshipIsOrdered)
    }

    /// The stored form of the property at `index`, naming related objects by `id`.
    func storedValue(at index: Int, id: (ManagedObject) -> ManagedObjectID) -> StoredValue {
        Self.storedValue(values[index], shape: slot(at: index).shape, id: id)
    }

    /// Every property's stored form, naming related objects by `id`; with `emptyingTransients`,
    /// transient properties as empty (what a store gets). One pass over the values: a save
    /// makes one of these per saved object.
    ///
    /// With `movingAttributes`, for a save after which the object keeps only its committed
    /// snapshot (`keepOnlyCommittedValues()`): the stored attributes' values move into it,
    /// not copied (a copy and a destruction of each value), and the object has none until the
    /// save has happened, or `restoreAttributes(from:)` put them back because it did not.
    func storedValues(
        id: (ManagedObject) -> ManagedObjectID, emptyingTransients: Bool, movingAttributes: Bool = false
    ) -> [StoredValue] {
        if state != .loaded { prepareValues() }
        let slots = entity.slots
        var stored: [StoredValue] = []
        stored.reserveCapacity(slots.count)
        for index in slots.indices {
            let slot = slots[index]
            if emptyingTransients && slot.isTransient {
                stored.append(slot.shape.emptyStoredValue)
            } else if slot.shape == .attribute {
                // Straight from the slot: one copy of the value, not two, or none.
                stored.append(.attribute(movingAttributes && slot.isStoredAttribute ? storage[index].take() : storage[index]))
            } else {
                stored.append(Self.storedValue(storage[index], shape: slot.shape, id: id))
            }
        }
        return stored
    }

    private static func storedValue(_ value: Any?, shape: PropertySlot.Shape, id: (ManagedObject) -> ManagedObjectID) -> StoredValue {
        // Attributes first: only a relationship's slot can hold a `PendingRelationship`, and
        // the cast that tells is the expensive part for the many attribute values of a save.
        if shape == .attribute { return .attribute(value) }
        let isToMany = shape == .toMany
        guard let value else { return shape.emptyStoredValue }
        // Metadata comparisons (`cast`) for the resolved set and a pending relationship; only
        // a to-one's object needs a class cast.
        if isToMany, let objects: OrderedSet<ManagedObject> = cast(value) {
            return .toMany(objects.map(id))
        }
        if let pending = exactly(value, PendingRelationship.self) {
            if pending.isFault { return .toManyFault }
            return pending.isToMany ? .toMany(pending.ids) : .toOne(pending.ids.first)
        }
        if isToMany { return .toMany([]) }
        // What else a to-one's slot holds is its object (`link`, key-value coding and `load`
        // put nothing else there), so the object is taken out of the `Any` without checking
        // its class: that dynamic cast cost more than the rest of the value's snapshot.
        return .toOne(id(unsafeDowncast(value as AnyObject, to: ManagedObject.self)))
    }

    /// Puts back the attribute values `storedValues(id:emptyingTransients:movingAttributes:)`
    /// moved into `stored`, for a save that did not happen.
    final func restoreAttributes(from stored: [StoredValue]) {
        let slots = entity.slots
        for index in slots.indices where slots[index].isStoredAttribute {
            if case .attribute(let value) = stored[index] { storage[index] = value }
        }
    }

    /// `stored` with this object's current transient values, which the store does not keep.
    /// Takes `stored` (a save hands over its snapshots: no copy of each).
    func keepingTransientValues(_ stored: consuming StoredObject) -> StoredObject {
        for index in entity.transientIndexes {
            stored.values[index] = storedValue(at: index, id: \.objectID)
        }
        return stored
    }

    /// After a save to the store: the values are the committed snapshot's, so the object keeps
    /// that one copy (as a fired fault does, `State.committed`) and lets go of the objects it
    /// referred to. Saved objects that refer only to each other (a relationship and its
    /// inverse) are then released once the app no longer uses them, as unchanged objects are;
    /// a relationship used later resolves by ID.
    func keepOnlyCommittedValues() {
        guard state == .loaded, committedSnapshot != nil else { return }
        storage = []
        state = .committed
    }

    /// Replaces every value with a stored snapshot; relationships become pending until used.
    /// Transient values stay as they are when the snapshot has none.
    func load(_ snapshot: StoredObject) {
        let transients = storage.isEmpty ? [] : entity.properties.filter(\.isTransient).map { ($0.index, storage[$0.index]) }
        deferredToManyAppends = []
        storage = snapshot.values.map { value -> Any? in
            switch value {
            case .attribute(let value): value
            case .toOne(let id): id.map { PendingRelationship(ids: [$0], isToMany: false) }
            case .toMany(let ids):
                ids.isEmpty ? OrderedSet<ManagedObject>() : PendingRelationship(ids: ids, isToMany: true)
            case .toManyFault: PendingRelationship(ids: [], isToMany: true, isFault: true)
            }
        }
        for (index, value) in transients where storage[index] == nil {
            storage[index] = value
        }
        state = .loaded
        committedSnapshot = snapshot
    }
}

/// Predicates compare objects by object ID, so `tweeter = %@` matches with the user or its ID,
/// and objects of different contexts that stand for the same stored object match.
extension ManagedObject: ObjectIdentifying {
    public var objectIDValue: AnyHashable { objectID }
}

/// Related objects named by ID, as read from the store, not yet turned into objects.
struct PendingRelationship {
    var ids: [ManagedObjectID]
    var isToMany: Bool
    /// A to-many whose members the store did not send with the object (`ids` is empty until
    /// they are asked for).
    var isFault = false
}

extension PropertyDescription {
    /// An object's value for a property with no value.
    var emptyValue: Any? {
        switch kind {
        case .attribute, .fetchedProperty: nil
        case .relationship(let relationship): relationship.isToMany ? OrderedSet<ManagedObject>() : nil
        }
    }

    /// What the store keeps for a property with no value.
    package var emptyStoredValue: StoredValue { slotShape.emptyStoredValue }

    /// A fetched property is never stored, so never has a slot; it reads as an attribute's.
    var slotShape: PropertySlot.Shape {
        switch kind {
        case .attribute, .fetchedProperty: .attribute
        case .relationship(let relationship): relationship.isToMany ? .toMany : .toOne
        }
    }

    var relationshipIsOrdered: Bool {
        if case .relationship(let relationship) = kind { relationship.isOrdered } else { false }
    }
}

extension PropertySlot.Shape {
    /// What the store keeps for a property of this shape with no value.
    var emptyStoredValue: StoredValue {
        switch self {
        case .attribute: .attribute(nil)
        case .toOne: .toOne(nil)
        case .toMany: .toMany([])
        }
    }
}
