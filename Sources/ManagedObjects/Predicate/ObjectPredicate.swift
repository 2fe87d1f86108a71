import DataModel
import Foundation

/// A condition objects are tested against: Core Data's `NSPredicate`, renamed because
/// Foundation on Linux already has that name.
///
/// ```swift
/// let recent = ObjectPredicate("tweeter = %@ && created > %@", joe, yesterday)
/// let busy = ObjectPredicate("tweets.@count > 5")
/// let either = recent || busy
/// either.evaluate(with: user)
/// ```
///
/// The format is parsed once (by `PredicateSyntax`, shared with the generator) and compiled
/// into an evaluation tree with the arguments substituted; evaluation never re-parses.
///
/// ## Evaluation rules
/// - Numbers compare by value across types (`Int16`, `Double`, `Decimal`, `NSNumber`, `Bool`
///   as 0 or 1). Dates compare with dates (and with numbers, read as seconds since
///   2001-01-01). Strings compare by Unicode canonical equivalence; `[c]` ignores case, `[d]`
///   accents.
/// - `==` with `nil`: true only when the value is `nil` (or `NSNull`, or missing).
///   `<`, `<=`, `>`, `>=`, `BETWEEN` and the string operators are false when either side is
///   `nil` or the two sides cannot be ordered (a string and a number).
/// - Objects adopting ``ObjectIdentifying`` compare by object ID; other class instances by
///   identity; other values by `Hashable` equality.
/// - `LIKE`: `*` and `?` wildcards, `\` escapes, whole string. `MATCHES`: an ICU regular
///   expression (`NSRegularExpression`) that must match the whole string.
/// - A key path through a to-many relationship (`tweets.text`) yields the values of every
///   member. With no `ANY`/`ALL`/`NONE` in front, a comparison of such a path is true when it
///   holds for any of them — what a Core Data SQLite store does (Foundation's in-memory
///   `NSPredicate` would compare the whole collection instead).
///
/// ## Where a Core Data SQLite store differs
/// - `x != value` is true here for objects whose `x` is `nil` (as in memory with
///   `NSPredicate`); SQL's `x <> ?` leaves such rows out.
/// - Comparing values of different kinds (a string with a number) is false here; the store
///   converts one side, and `NSPredicate` in memory raises an exception.
/// - `[c]`/`[d]` fold with Unicode case folding for all scripts here; the store uses its own
///   collation.
public struct ObjectPredicate: @unchecked Sendable, CustomStringConvertible {
    // Unchecked: a predicate is immutable once built; its arguments and substitution values
    // are required to be values or objects that are not mutated while it is in use, as with
    // NSPredicate, and a block is required to be free of shared mutable state, as
    // NSPredicate(block:) requires of its block.

    /// What the predicate was built from. Internal so that stores can inspect a predicate
    /// (translate its syntax, or find it is a block they must leave to memory).
    indirect enum Source {
        case syntax(PredicateSyntax, arguments: [Any?])
        case block((Any?, [String: Any]?) -> Bool)
        case and([ObjectPredicate])
        case or([ObjectPredicate])
        case not(ObjectPredicate)
    }

    let source: Source
    /// Variables substituted by ``withSubstitutionVariables(_:)``.
    let variables: [String: Any]
    private let compiled: CompiledPredicate
    /// Variables that must be given at evaluation.
    let freeVariables: Set<String>

    private init(source: Source, variables: [String: Any]) throws(PredicateCompileError) {
        self.source = source
        self.variables = variables
        (compiled, freeVariables) = try Self.compile(source, variables: variables)
    }

    private static func compile(_ source: Source, variables: [String: Any]) throws(PredicateCompileError) -> (CompiledPredicate, Set<String>) {
        switch source {
        case .syntax(let syntax, let arguments):
            var compiler = PredicateCompiler(arguments: arguments, variables: variables)
            let compiled = try compiler.compile(syntax)
            return (compiled, compiler.freeVariables)
        case .block(let block):
            if variables.isEmpty { return (.block(block), []) }
            return (.block { object, bindings in
                block(object, variables.merging(bindings ?? [:]) { _, given in given })
            }, [])
        case .and(let operands), .or(let operands):
            var compiled: [CompiledPredicate] = []
            var free = Set<String>()
            for operand in operands {
                let (predicate, operandFree) = try compile(operand.source, variables: operand.variables.merging(variables) { _, new in new })
                compiled.append(predicate)
                free.formUnion(operandFree)
            }
            if case .and = source { return (.and(compiled), free) }
            return (.or(compiled), free)
        case .not(let operand):
            let (predicate, free) = try compile(operand.source, variables: operand.variables.merging(variables) { _, new in new })
            return (.not(predicate), free)
        }
    }

    // MARK: Creating predicates

    /// A predicate from a format string and its arguments (`%@`, `%K`, `%d` …), as
    /// `NSPredicate(format:_:)` makes one.
    ///
    /// A format that does not parse, or arguments that do not fit it, stop the program with
    /// a message naming the column, as `NSPredicate` raises an exception. Use
    /// ``init(parsing:arguments:)`` to get an error instead.
    public init(_ format: String, _ arguments: Any?...) {
        self.init(format, argumentArray: arguments)
    }

    /// `NSPredicate(format:_:)`'s spelling of ``init(_:_:)``.
    public init(format: String, _ arguments: Any?...) {
        self.init(format, argumentArray: arguments)
    }

    /// `NSPredicate(format:argumentArray:)`'s spelling of ``init(_:argumentArray:)``.
    public init(format: String, argumentArray arguments: [Any?]?) {
        self.init(format, argumentArray: arguments ?? [])
    }

    /// A predicate from a format string and an array of arguments
    /// (`NSPredicate(format:argumentArray:)`). Traps on an invalid format, like ``init(_:_:)``.
    public init(_ format: String, argumentArray arguments: [Any?]) {
        do {
            try self.init(parsing: format, arguments: arguments)
        } catch {
            fatalError("ObjectPredicate: \(error)")
        }
    }

    /// A predicate from a format string and its arguments, throwing instead of trapping.
    /// - Throws: ``ObjectPredicateError`` naming what is wrong (and the column, for syntax).
    public init(parsing format: String, arguments: [Any?] = []) throws(ObjectPredicateError) {
        let syntax: PredicateSyntax
        do {
            syntax = try PredicateSyntax(parsing: format)
        } catch {
            throw ObjectPredicateError(format: format, message: error.message, column: error.column)
        }
        do {
            try self.init(source: .syntax(syntax, arguments: arguments), variables: [:])
        } catch {
            throw ObjectPredicateError(format: format, message: error.message, column: nil)
        }
    }

    /// A predicate from already parsed syntax and the values of its format arguments.
    public init(syntax: PredicateSyntax, arguments: [Any?] = []) throws(ObjectPredicateError) {
        do {
            try self.init(source: .syntax(syntax, arguments: arguments), variables: [:])
        } catch {
            throw ObjectPredicateError(format: syntax.format, message: error.message, column: nil)
        }
    }

    /// A predicate that is always `value` (`TRUEPREDICATE`, `FALSEPREDICATE`).
    public init(value: Bool) {
        self = Self.unchecked(.syntax(.value(value), arguments: []))
    }

    /// A predicate that calls `block` with the evaluated object and the substitution variables
    /// (`NSPredicate(block:)`).
    public init(block: @escaping (_ object: Any?, _ variables: [String: Any]?) -> Bool) {
        self = Self.unchecked(.block(block))
    }

    /// Builds from parts that were compiled before, which cannot fail again.
    private static func unchecked(_ source: Source, variables: [String: Any] = [:]) -> ObjectPredicate {
        do {
            return try ObjectPredicate(source: source, variables: variables)
        } catch {
            fatalError("ObjectPredicate: \(error.message)")
        }
    }

    /// True when every subpredicate is (`NSCompoundPredicate(andPredicateWithSubpredicates:)`);
    /// true for none.
    public static func and(_ subpredicates: [ObjectPredicate]) -> ObjectPredicate {
        unchecked(.and(subpredicates))
    }

    /// True when any subpredicate is; false for none.
    public static func or(_ subpredicates: [ObjectPredicate]) -> ObjectPredicate {
        unchecked(.or(subpredicates))
    }

    /// True when `predicate` is false.
    public static func not(_ predicate: ObjectPredicate) -> ObjectPredicate {
        unchecked(.not(predicate))
    }

    public static func && (lhs: ObjectPredicate, rhs: ObjectPredicate) -> ObjectPredicate { .and([lhs, rhs]) }
    public static func || (lhs: ObjectPredicate, rhs: ObjectPredicate) -> ObjectPredicate { .or([lhs, rhs]) }
    public static prefix func ! (predicate: ObjectPredicate) -> ObjectPredicate { .not(predicate) }

    /// The predicate with `$VARIABLES` replaced by values (`withSubstitutionVariables(_:)`),
    /// as a fetch-request template is filled in.
    public func withSubstitutionVariables(_ variables: [String: Any]) -> ObjectPredicate {
        Self.unchecked(source, variables: self.variables.merging(variables) { _, new in new })
    }

    // MARK: Evaluating

    /// Whether `object` satisfies the predicate. `object` can adopt ``KeyValueCoding`` (as
    /// `ManagedObject` does), or be a dictionary, a collection, a string, a number or any
    /// Swift value (read through its stored properties).
    ///
    /// A `$VARIABLE` with no value, neither substituted nor in `substitutionVariables`, stops
    /// the program with a message naming it, as `NSPredicate` raises an exception.
    public func evaluate(with object: Any?, substitutionVariables: [String: Any]? = nil) -> Bool {
        checkVariablesAreBound(substitutionVariables)
        return compiled.evaluate(PredicateSubject(object), substitutionVariables ?? [:])
    }

    /// Whether `object` satisfies the predicate: ``evaluate(with:substitutionVariables:)``
    /// for an object whose type is known to answer by key, which saves a dynamic cast per
    /// evaluation.
    public func evaluate(with object: some KeyValueCoding, substitutionVariables: [String: Any]? = nil) -> Bool {
        checkVariablesAreBound(substitutionVariables)
        return compiled.evaluate(PredicateSubject(object), substitutionVariables ?? [:])
    }

    /// Whether `object` satisfies the predicate, throwing instead of stopping the program when a
    /// `$VARIABLE` has no value: for callers that take format strings from outside (a server's
    /// request) and for stores and fetches, which must report the error.
    /// - Throws: ``ObjectPredicateError`` naming the first unbound variable.
    public func evaluateChecked(with object: Any?, substitutionVariables: [String: Any]? = nil) throws(ObjectPredicateError) -> Bool {
        try checkBindings(substitutionVariables)
        return compiled.evaluate(PredicateSubject(object), substitutionVariables ?? [:])
    }

    /// `evaluateChecked(with:substitutionVariables:)` for an object known to answer by key.
    public func evaluateChecked(with object: some KeyValueCoding, substitutionVariables: [String: Any]? = nil) throws(ObjectPredicateError) -> Bool {
        try checkBindings(substitutionVariables)
        return compiled.evaluate(PredicateSubject(object), substitutionVariables ?? [:])
    }

    /// Throws when a `$VARIABLE` has no value, neither substituted nor given. Every variable
    /// the compiled tree can look up is either a SUBQUERY variable (bound by the subquery
    /// itself) or in `freeVariables`, so after this check evaluation never reaches
    /// `CompiledExpression.variable`'s trap.
    func checkBindings(_ substitutionVariables: [String: Any]? = nil) throws(ObjectPredicateError) {
        if let missing = unboundVariable(substitutionVariables) {
            throw ObjectPredicateError(format: predicateFormat, message: Self.unboundMessage(missing), column: nil)
        }
    }

    private func checkVariablesAreBound(_ substitutionVariables: [String: Any]?) {
        if let missing = unboundVariable(substitutionVariables) {
            fatalError("ObjectPredicate: \(Self.unboundMessage(missing)) in \(predicateFormat)")
        }
    }

    /// The first (by name) free variable `substitutionVariables` gives no value for.
    private func unboundVariable(_ substitutionVariables: [String: Any]?) -> String? {
        guard !freeVariables.isEmpty else { return nil }
        let given = substitutionVariables ?? [:]
        return freeVariables.sorted().first { given[$0] == nil }
    }

    private static func unboundMessage(_ variable: String) -> String {
        "no value for the variable $\(variable); pass it in substitutionVariables or use withSubstitutionVariables(_:)"
    }

    // MARK: Describing

    /// The predicate as a format string, arguments and substituted variables written as
    /// literals where they have a literal form (`NSPredicate.predicateFormat`).
    public var predicateFormat: String {
        switch source {
        case .syntax(let syntax, let arguments):
            let printer = PredicatePrinter(
                argument: { index, kind in
                    guard index < arguments.count else { return nil }
                    if kind == .keyPath, let path = PredicateValues.string(arguments[index]) { return path }
                    return Self.literalText(arguments[index])
                },
                variable: { name in variables[name].map { Self.literalText($0) } })
            return printer.format(syntax)
        case .block:
            return "BLOCKPREDICATE"
        case .and(let operands):
            return Self.compoundFormat(operands, "AND", empty: "TRUEPREDICATE", variables: variables)
        case .or(let operands):
            return Self.compoundFormat(operands, "OR", empty: "FALSEPREDICATE", variables: variables)
        case .not(let operand):
            let inner = operand.substituting(variables)
            return inner.isCompound ? "NOT (\(inner.predicateFormat))" : "NOT " + inner.predicateFormat
        }
    }

    public var description: String { predicateFormat }

    private func substituting(_ outer: [String: Any]) -> ObjectPredicate {
        outer.isEmpty ? self : withSubstitutionVariables(outer)
    }

    private var isCompound: Bool {
        switch source {
        case .and(let list), .or(let list): return list.count > 1
        case .syntax(.and(let list), _), .syntax(.or(let list), _): return list.count > 1
        default: return false
        }
    }

    private static func compoundFormat(_ operands: [ObjectPredicate], _ word: String, empty: String, variables: [String: Any]) -> String {
        if operands.isEmpty { return empty }
        return operands.map { operand in
            let inner = operand.substituting(variables)
            return inner.isCompound ? "(\(inner.predicateFormat))" : inner.predicateFormat
        }.joined(separator: " \(word) ")
    }

    /// A value as a format-string literal: strings quoted, dates as `CAST(seconds, "NSDate")`,
    /// collections as `{…}`; other objects as their description.
    static func literalText(_ value: Any?) -> String {
        guard let value = PredicateValues.normalized(value) else { return "nil" }
        if let bool = value as? Bool { return bool ? "TRUE" : "FALSE" }
        if let string = PredicateValues.string(value) { return PredicatePrinter.quoted(string) }
        if let date = value as? Date { return "CAST(\(date.timeIntervalSinceReferenceDate), \"NSDate\")" }
        if let uuid = value as? UUID { return PredicatePrinter.quoted(uuid.uuidString) }
        if let url = value as? URL { return PredicatePrinter.quoted(url.absoluteString) }
        switch ScalarValue.from(value) {
        case .int(let number): return String(number)
        case .double(let number): return PredicatePrinter.literalText(.double(number))
        case .decimal(let number): return "\(number)"
        default: break
        }
        if let elements = PredicateValues.elements(value) {
            return "{" + elements.map(literalText).joined(separator: ", ") + "}"
        }
        return String(describing: value)
    }
}

extension Sequence {
    /// The elements that satisfy `predicate` (`NSArray.filtered(using:)`).
    public func filtered(using predicate: ObjectPredicate) -> [Element] {
        filter { predicate.evaluate(with: $0 as Any) }
    }
}

extension Sequence where Element: KeyValueCoding {
    /// The elements that satisfy `predicate` (`NSArray.filtered(using:)`).
    public func filtered(using predicate: ObjectPredicate) -> [Element] {
        filter { predicate.evaluate(with: $0) }
    }
}
