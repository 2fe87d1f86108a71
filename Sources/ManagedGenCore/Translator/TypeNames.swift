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
    /// A model description type (`Model`, `Entity`, `Attribute`, …), which `ManagedObjects`
    /// names in `ModelLiteral` without re-exporting `DataModel`: those are common words that the
    /// target's own code declares too (QueryKit's `Attribute<T>`, SugarRecord's `Entity`
    /// protocol), which the generator cannot see. Used only inside the model enum, where
    /// `modelLiteralAliases` are private aliases (an inner scope hides the target's own types):
    /// those by their short name, the others as `ManagedObjects.ModelLiteral.<name>`.
    func dataModel(_ name: String) -> String {
        modelLiteralAliases.contains(name) ? name : "\(RuntimeContract.module).\(RuntimeContract.ModelLiteral.type).\(name)"
    }

    /// The model description types the model enum declares private aliases of: the frequent
    /// ones, less any name the generated code declares itself (an entity class `Entity` must
    /// stay reachable in the enum's class registry).
    let modelLiteralAliases: [String]

    init(declaredNames: Set<String>) {
        self.declaredNames = declaredNames
        modelLiteralAliases = RuntimeContract.ModelLiteral.aliased.filter { !declaredNames.contains($0) }
    }

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
