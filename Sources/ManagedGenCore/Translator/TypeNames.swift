/// The names of the library types generated code uses: the standard library's and Foundation's
/// module-qualified only where the model would shadow them (a class named `Set`, an attribute
/// named `Date`), so ordinary models get ordinary-looking code and clashing ones still compile;
/// the runtime's and the model description's always, since the target's own code (which the
/// generator cannot see) may declare a `ManagedObject`, a `FetchRequest` or an `Entity`.
struct TypeNames: Sendable {
    /// Every name the generated code declares: classes, properties, nested types, the model enum.
    let declaredNames: Set<String>

    /// The modules generated code qualifies names with: a class may not take one of these names.
    static let qualifyingModules: Set<String> = ["Swift", "Foundation", "ManagedObjects", "DataModel"]

    func qualified(_ name: String, in module: String) -> String {
        declaredNames.contains(name) ? "\(module).\(name)" : name
    }

    func swift(_ name: String) -> String { qualified(name, in: "Swift") }
    func foundation(_ name: String) -> String { qualified(name, in: "Foundation") }
    /// A runtime type (`RuntimeContract.types`), always `ManagedObjects.<name>`.
    func runtime(_ name: String) -> String { "\(RuntimeContract.module).\(name)" }
    /// The model's description types (`Model`, `Entity`, `Attribute`, `Relationship`, …) are
    /// always qualified: those are common words that the target's own code declares too
    /// (QueryKit's `Attribute<T>`, SugarRecord's `Entity` protocol), which the generator cannot
    /// see and which shadow an imported name in every file of the target. `ManagedObjects`
    /// re-exports them, and is a name generated code reserves.
    func dataModel(_ name: String) -> String { "\(RuntimeContract.module).\(name)" }

    var string: String { swift("String") }
    var int: String { swift("Int") }
    var any: String { "Any" }
    func set(of element: String) -> String { "\(swift("Set"))<\(element)>" }
    func orderedSet(of element: String) -> String { "\(runtime("OrderedSet"))<\(element)>" }
    var indexSet: String { foundation("IndexSet") }
    var context: String { runtime("ManagedObjectContext") }
    var predicate: String { runtime("ObjectPredicate") }
    var sortDescriptor: String { runtime("ObjectSortDescriptor") }
    func fetchRequest(of result: String) -> String { "\(runtime("FetchRequest"))<\(result)>" }
    var managedObject: String { runtime("ManagedObject") }
}
