import DataModel
import Foundation

/// Why a parsed predicate cannot be built: arguments missing or of the wrong kind, unknown
/// functions, invalid regular expressions.
struct PredicateCompileError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

/// Turns syntax plus argument values and substituted variables into a `CompiledPredicate`.
struct PredicateCompiler {
    let arguments: [Any?]
    let variables: [String: Any]
    /// `SUBQUERY` variables in scope: looked up at evaluation, never substituted.
    var iterationVariables: Set<String> = []
    /// Variables left to be bound at evaluation.
    private(set) var freeVariables: Set<String> = []

    init(arguments: [Any?], variables: [String: Any]) {
        self.arguments = arguments
        self.variables = variables
    }

    mutating func compile(_ predicate: PredicateSyntax) throws(PredicateCompileError) -> CompiledPredicate {
        switch predicate {
        case .value(let value): return .constant(value)
        case .comparison(let comparison):
            let left = try compile(comparison.left)
            let right = try compile(comparison.right)
            return .comparison(try CompiledComparison(comparison, left: left, right: right))
        case .and(let operands):
            var compiled: [CompiledPredicate] = []
            for operand in operands { compiled.append(try compile(operand)) }
            return .and(compiled)
        case .or(let operands):
            var compiled: [CompiledPredicate] = []
            for operand in operands { compiled.append(try compile(operand)) }
            return .or(compiled)
        case .not(let operand):
            return .not(try compile(operand))
        }
    }

    private func argument(_ index: Int, _ kind: PredicateArgumentKind) throws(PredicateCompileError) -> Any? {
        guard index < arguments.count else {
            throw PredicateCompileError(
                "the format has more arguments than the \(arguments.count) given: \(kind.specifier) is argument \(index + 1)")
        }
        return arguments[index]
    }

    private func keyPathArgument(_ index: Int) throws(PredicateCompileError) -> String {
        guard let path = PredicateValues.string(PredicateValues.normalized(try argument(index, .keyPath))) else {
            throw PredicateCompileError("argument \(index + 1) is for %K and must be a key path string")
        }
        return path
    }

    mutating func compile(_ expression: PredicateExpressionSyntax) throws(PredicateCompileError) -> CompiledExpression {
        switch expression {
        case .evaluatedObject:
            return .evaluatedObject
        case .keyPath(let path):
            return .keyPath(try CompiledKeyPath(path))
        case .keyPathOn(.evaluatedObject, let path):
            return .keyPath(try CompiledKeyPath(path))
        case .keyPathOn(.argument(let index, .keyPath), let path):
            return .keyPath(try CompiledKeyPath(try keyPathArgument(index) + "." + path))
        case .keyPathOn(let base, let path):
            return .keyPathOn(try compile(base), try CompiledKeyPath(path))
        case .literal(let literal):
            switch literal {
            case .null: return .constant(nil)
            case .bool(let value): return .constant(value)
            case .integer(let value): return .constant(value)
            case .double(let value): return .constant(value)
            case .string(let value): return .constant(value)
            }
        case .argument(let index, .keyPath):
            return .keyPath(try CompiledKeyPath(try keyPathArgument(index)))
        case .argument(let index, let kind):
            return .constant(PredicateValues.normalized(try argument(index, kind)))
        case .variable(let name):
            if !iterationVariables.contains(name), let value = variables[name] {
                return .constant(PredicateValues.normalized(value))
            }
            if !iterationVariables.contains(name) { freeVariables.insert(name) }
            return .variable(name)
        case .aggregate(let items):
            var compiled: [CompiledExpression] = []
            for item in items { compiled.append(try compile(item)) }
            if compiled.allSatisfy({ $0.constantValue != nil }) {
                return .constant(compiled.map { ($0.constantValue ?? nil) as Any })
            }
            return .aggregate(compiled)
        case .function(let name, let arguments):
            return try compileFunction(name, arguments)
        case .arithmetic(let op, let left, let right):
            return .arithmetic(op, try compile(left), try compile(right))
        case .negation(let operand):
            return .negation(try compile(operand))
        case .index(let base, let index):
            let compiledIndex: CompiledExpression.CompiledIndex = switch index {
            case .first: .first
            case .last: .last
            case .size: .size
            case .expression(let value): .expression(try compile(value))
            }
            return .index(try compile(base), compiledIndex)
        case .subquery(let collection, let variable, let predicate):
            let compiledCollection = try compile(collection)
            let saved = iterationVariables
            iterationVariables.insert(variable)
            defer { iterationVariables = saved }
            return .subquery(compiledCollection, variable: variable, try compile(predicate))
        case .ternary(let condition, let ifTrue, let ifFalse):
            return .ternary(try compile(condition), try compile(ifTrue), try compile(ifFalse))
        case .assignment(_, let value):
            // `$x := value` is the value; the assignment only matters to NSExpression's
            // mutable evaluation context, which predicates do not expose.
            return try compile(value)
        }
    }

    private mutating func compileFunction(_ name: String, _ arguments: [PredicateExpressionSyntax]) throws(PredicateCompileError) -> CompiledExpression {
        var compiled: [CompiledExpression] = []
        for argument in arguments { compiled.append(try compile(argument)) }
        switch name {
        case "FUNCTION":
            throw PredicateCompileError(
                "FUNCTION(…) calls an Objective-C method by name, which Swift cannot do here; use ObjectPredicate(block:) instead")
        case "FETCH":
            throw PredicateCompileError("FETCH(…) runs a fetch request inside a predicate, which is not supported")
        case "CAST":
            guard compiled.count == 2, let type = compiled[1].constantValue.flatMap({ PredicateValues.string($0) }) else {
                throw PredicateCompileError("CAST takes a value and a type name, as in CAST(x, 'NSDate')")
            }
            return .function(.cast(type), [compiled[0]])
        default:
            guard let (function, arity) = PredicateFunction.named(name) else {
                throw PredicateCompileError("unknown function '\(name)'")
            }
            if let arity, arity != compiled.count {
                throw PredicateCompileError("\(name) takes \(arity) argument\(arity == 1 ? "" : "s"), not \(compiled.count)")
            }
            if arity == nil && compiled.isEmpty {
                throw PredicateCompileError("\(name) needs a collection or values to work on")
            }
            return .function(function, compiled)
        }
    }
}
