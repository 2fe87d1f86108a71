import Foundation
@testable import ManagedObjects
import StoreTestSupport
import Testing

/// `evaluateChecked(with:substitutionVariables:)`, the path stores use: an unbound
/// `$VARIABLE` is an error naming it, where `evaluate(with:)` would trap.
@Suite("ObjectPredicate checked evaluation")
struct CheckedEvaluationTests {
    let bob = PredicateTestRecord("bob", [
        "name": "Bob", "age": 45,
        "pets": [PredicateTestRecord("rex", ["age": 3]), PredicateTestRecord("tom", ["age": 9])],
    ])

    private func unboundVariable(_ predicate: ObjectPredicate, _ variables: [String: Any]? = nil) -> String? {
        do {
            _ = try predicate.evaluateChecked(with: bob, substitutionVariables: variables)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func unboundVariablesAreErrorsNamingThem() {
        #expect(unboundVariable(ObjectPredicate("name == $NAME"))?.contains("$NAME") == true)
        // The first missing one by name, wherever it is.
        #expect(unboundVariable(ObjectPredicate("age > $MIN AND name == $NAME"), ["NAME": "Bob"])?.contains("$MIN") == true)
        #expect(unboundVariable(ObjectPredicate("name == $A") || ObjectPredicate("age > $B"), ["A": "x"])?.contains("$B") == true)
        #expect(unboundVariable(ObjectPredicate("SUBQUERY(pets, $p, $p.age > $LIMIT).@count > 0"))?.contains("$LIMIT") == true)
    }

    @Test func boundVariablesEvaluate() throws {
        #expect(try ObjectPredicate("name == $NAME").evaluateChecked(with: bob, substitutionVariables: ["NAME": "Bob"]))
        #expect(try !ObjectPredicate("age > $MIN").withSubstitutionVariables(["MIN": 50])
            .evaluateChecked(with: bob, substitutionVariables: nil))
        // A SUBQUERY's own variable is bound by the subquery, not by the caller.
        #expect(try ObjectPredicate("SUBQUERY(pets, $p, $p.age > $LIMIT).@count == 1")
            .evaluateChecked(with: bob, substitutionVariables: ["LIMIT": 5]))
    }

    @Test func storesCanInspectTheSource() {
        let predicate = ObjectPredicate("name == $NAME").withSubstitutionVariables(["NAME": "Bob"])
        guard case .syntax = predicate.source else {
            Issue.record("a format predicate keeps its syntax")
            return
        }
        #expect(predicate.variables["NAME"] as? String == "Bob")
        #expect(ObjectPredicate("age > $MIN").freeVariables == ["MIN"])
    }
}
