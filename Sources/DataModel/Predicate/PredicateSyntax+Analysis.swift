extension PredicateSyntax {
    /// Every use of a `$VARIABLE`, in the order written. `SUBQUERY` iteration variables are
    /// left out inside their subquery.
    public var variableUses: [PredicateVariableUse] {
        var walker = SyntaxWalker()
        walker.walk(self)
        return walker.variableUses
    }

    /// The names of the substitution variables, each once, in the order first written.
    public var variableNames: [String] {
        var seen = Set<String>()
        return variableUses.map(\.name).filter { seen.insert($0).inserted }
    }

    /// The key paths read from the evaluated object, each once, in the order written: for
    /// "unknown key" checks. A path through a `SUBQUERY` variable is joined to the
    /// subquery's collection (`SUBQUERY(friends, $f, $f.age > 3)` reads `friends` and
    /// `friends.age`). Collection operators stay components (`tweets.@count`). Paths given by
    /// `%K` are not known until arguments are, and are not listed.
    public var keyPaths: [String] {
        var walker = SyntaxWalker()
        walker.walk(self)
        var seen = Set<String>()
        return walker.keyPaths.filter { seen.insert($0).inserted }
    }
}

extension PredicateExpressionSyntax {
    /// The names of the variables this expression reads, each once, in the order first
    /// written (see ``PredicateSyntax/variableNames``).
    public var variableNames: [String] {
        var walker = SyntaxWalker()
        walker.walk(self)
        var seen = Set<String>()
        return walker.variableUses.map(\.name).filter { seen.insert($0).inserted }
    }

    /// The key paths this expression reads from the evaluated object (see
    /// ``PredicateSyntax/keyPaths``).
    public var keyPaths: [String] {
        var walker = SyntaxWalker()
        walker.walk(self)
        var seen = Set<String>()
        return walker.keyPaths.filter { seen.insert($0).inserted }
    }
}

private struct SyntaxWalker {
    var variableUses: [PredicateVariableUse] = []
    var keyPaths: [String] = []
    /// Subquery variables in scope, each with the key path of its collection (if known).
    var iterationVariables: [String: String?] = [:]

    mutating func walk(_ predicate: PredicateSyntax) {
        switch predicate {
        case .value: break
        case .comparison(let comparison): walk(comparison)
        case .and(let list), .or(let list): list.forEach { walk($0) }
        case .not(let operand): walk(operand)
        }
    }

    private func plainKeyPath(_ expression: PredicateExpressionSyntax) -> String? {
        switch expression {
        case .keyPath(let path): path
        case .keyPathOn(.evaluatedObject, let path): path
        default: nil
        }
    }

    private func variableSide(_ expression: PredicateExpressionSyntax) -> (name: String, member: String?)? {
        switch expression {
        case .variable(let name) where iterationVariables[name] == nil: (name, nil)
        case .keyPathOn(.variable(let name), let path) where iterationVariables[name] == nil: (name, path)
        default: nil
        }
    }

    mutating func walk(_ comparison: PredicateComparison) {
        // Key paths inside a variable side (`$FETCH_SOURCE.id`) belong to another object.
        if let (name, member) = variableSide(comparison.left) {
            variableUses.append(PredicateVariableUse(
                name: name, comparedKeyPath: plainKeyPath(comparison.right), memberKeyPath: member,
                operatorType: comparison.operatorType, modifier: comparison.modifier,
                isCollection: member == nil && comparison.operatorType == .contains))
        } else {
            walk(comparison.left)
        }
        let collectionOnRight = comparison.operatorType == .in || comparison.operatorType == .between
        if let (name, member) = variableSide(comparison.right) {
            variableUses.append(PredicateVariableUse(
                name: name, comparedKeyPath: plainKeyPath(comparison.left), memberKeyPath: member,
                operatorType: comparison.operatorType, modifier: comparison.modifier,
                isCollection: member == nil && collectionOnRight))
        } else if collectionOnRight, case .aggregate(let items) = comparison.right {
            // `date BETWEEN {$START, $END}`, `kind IN {$A, $B}`: each is one value of the key path's type.
            for item in items {
                if let (name, member) = variableSide(item) {
                    variableUses.append(PredicateVariableUse(
                        name: name, comparedKeyPath: plainKeyPath(comparison.left), memberKeyPath: member,
                        operatorType: comparison.operatorType, modifier: comparison.modifier))
                } else {
                    walk(item)
                }
            }
        } else {
            walk(comparison.right)
        }
    }

    mutating func walk(_ expression: PredicateExpressionSyntax) {
        switch expression {
        case .evaluatedObject, .literal, .argument: break
        case .keyPath(let path):
            keyPaths.append(path)
        case .keyPathOn(let base, let path):
            switch base {
            case .evaluatedObject:
                keyPaths.append(path)
            case .variable(let name):
                if let collectionPath = iterationVariables[name] {
                    if let collectionPath { keyPaths.append(collectionPath + "." + path) }
                } else {
                    variableUses.append(PredicateVariableUse(name: name, memberKeyPath: path))
                }
            default:
                walk(base)
            }
        case .variable(let name):
            if iterationVariables[name] == nil { variableUses.append(PredicateVariableUse(name: name)) }
        case .aggregate(let items): items.forEach { walk($0) }
        case .function(_, let arguments): arguments.forEach { walk($0) }
        case .arithmetic(_, let left, let right):
            walk(left)
            walk(right)
        case .negation(let operand): walk(operand)
        case .index(let base, let subscriptIndex):
            walk(base)
            if case .expression(let value) = subscriptIndex { walk(value) }
        case .subquery(let collection, let variable, let predicate):
            walk(collection)
            let saved = iterationVariables
            iterationVariables[variable] = .some(plainKeyPath(collection))
            walk(predicate)
            iterationVariables = saved
        case .ternary(let condition, let ifTrue, let ifFalse):
            walk(condition)
            walk(ifTrue)
            walk(ifFalse)
        case .assignment(_, let value): walk(value)
        }
    }
}
