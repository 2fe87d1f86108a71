import DataModel
import Foundation
import ManagedObjects
import StoreTestSupport
import Testing

@Suite("ObjectPredicate API")
struct ObjectPredicateTests {
    let alice = PredicateTestRecord("alice", ["name": "Alice", "age": 30])
    let bob = PredicateTestRecord("bob", ["name": "Bob", "age": 45])

    @Test func variadicAndArrayArguments() {
        #expect(ObjectPredicate("name == %@ AND age > %d", "Alice", 20).evaluate(with: alice))
        #expect(!ObjectPredicate("name == %@", argumentArray: ["Bob"]).evaluate(with: alice))
        let name: String? = nil
        #expect(ObjectPredicate("nickname == %@", name).evaluate(with: alice))
    }

    @Test func compoundsAndOperators() {
        let named = ObjectPredicate("name BEGINSWITH 'A'")
        let old = ObjectPredicate("age > 40")
        #expect(ObjectPredicate.and([named, !old]).evaluate(with: alice))
        #expect(!(named && old).evaluate(with: alice))
        #expect((named || old).evaluate(with: bob))
        #expect(ObjectPredicate.not(named).evaluate(with: bob))
        #expect(ObjectPredicate.and([]).evaluate(with: alice))
        #expect(!ObjectPredicate.or([]).evaluate(with: alice))
        #expect(ObjectPredicate(value: true).evaluate(with: nil))
        #expect(!ObjectPredicate(value: false).evaluate(with: nil))
        #expect((named && old).predicateFormat == #"name BEGINSWITH "A" AND age > 40"#)
        #expect(((named || old) && named).predicateFormat == #"(name BEGINSWITH "A" OR age > 40) AND name BEGINSWITH "A""#)
        #expect((!(named || old)).predicateFormat == #"NOT (name BEGINSWITH "A" OR age > 40)"#)
        #expect(ObjectPredicate.and([]).predicateFormat == "TRUEPREDICATE")
    }

    @Test func predicateFormatWritesArgumentsAsLiterals() {
        let date = Date(timeIntervalSinceReferenceDate: 1000)
        let predicate = ObjectPredicate("%K == %@ AND created > %@ AND id IN %@ AND rating >= %f AND ok == %@",
                                        "name", "Jo \"J\"", date, [1, 2], 2.5, true)
        #expect(predicate.predicateFormat ==
            #"name == "Jo \"J\"" AND created > CAST(1000.0, "NSDate") AND id IN {1, 2} AND rating >= 2.5 AND ok == TRUE"#)
        #expect(predicate.description == predicate.predicateFormat)
        #expect(ObjectPredicate("x == %@", nil as Any?).predicateFormat == "x == nil")
    }

    /// GNUstep Tests/base/NSPredicate/basic.m: the format is kept, and substitution writes
    /// the values as literals.
    @Test func formatSurvivesSubstitution() {
        let predicate = ObjectPredicate("%K like %@+$b+$c", "$single", "b\"")
        #expect(predicate.predicateFormat == #"$single LIKE ("b\"" + $b) + $c"#)
        let substituted = predicate.withSubstitutionVariables([
            "single": "val_for_single_string", "b": "val_for_$b", "c": "val_for_$c",
        ])
        #expect(substituted.predicateFormat == #"$single LIKE ("b\"" + "val_for_$b") + "val_for_$c""#)
    }

    @Test func substitutionVariables() {
        let template = ObjectPredicate("name == $NAME AND age >= $MIN")
        let filled = template.withSubstitutionVariables(["NAME": "Alice", "MIN": 18])
        #expect(filled.evaluate(with: alice))
        #expect(!filled.evaluate(with: bob))
        #expect(filled.predicateFormat == #"name == "Alice" AND age >= 18"#)
        #expect(template.predicateFormat == "name == $NAME AND age >= $MIN")
        #expect(template.evaluate(with: bob, substitutionVariables: ["NAME": "Bob", "MIN": 40]))
        // Later substitutions win; evaluation-time values fill what is left.
        let partly = template.withSubstitutionVariables(["NAME": "Bob"])
        #expect(partly.evaluate(with: bob, substitutionVariables: ["MIN": 45]))
        #expect(!partly.withSubstitutionVariables(["NAME": "Alice"]).evaluate(with: bob, substitutionVariables: ["MIN": 1]))
        // Compounds pass substitutions to their parts.
        let compound = ObjectPredicate("name == $NAME") || ObjectPredicate("age > $AGE")
        #expect(compound.withSubstitutionVariables(["NAME": "Zed", "AGE": 40]).evaluate(with: bob))
        #expect(!compound.withSubstitutionVariables(["NAME": "Zed", "AGE": 50]).evaluate(with: bob))
    }

    @Test func blockPredicates() {
        let isAlice = ObjectPredicate { object, _ in (object as? PredicateTestRecord)?.label == "alice" }
        #expect(isAlice.evaluate(with: alice))
        #expect(!isAlice.evaluate(with: bob))
        let byKey = ObjectPredicate { object, variables in
            let key = variables?["key"] as? String ?? "name"
            return (object as? PredicateTestRecord)?.value(forKey: key) as? String == "Alice"
        }
        #expect(byKey.evaluate(with: alice))
        #expect(!byKey.withSubstitutionVariables(["key": "nickname"]).evaluate(with: alice))
        #expect((isAlice && ObjectPredicate("age == 30")).evaluate(with: alice))
        #expect((isAlice && ObjectPredicate("age == 30")).predicateFormat == "BLOCKPREDICATE AND age == 30")
    }

    @Test func throwingInitializerReportsColumn() {
        #expect(throws: ObjectPredicateError(format: "name ==", message: "expected an expression, found the end of the predicate", column: 8)) {
            try ObjectPredicate(parsing: "name ==")
        }
        do {
            _ = try ObjectPredicate(parsing: "a == %@ AND b == %@", arguments: [1])
            Issue.record("missing argument accepted")
        } catch {
            #expect(error.column == nil)
            #expect(error.description == #"invalid predicate "a == %@ AND b == %@": the format has more arguments than the 1 given: %@ is argument 2"#)
        }
    }

    @Test func syntaxCanBeReused() throws {
        let syntax = try PredicateSyntax(parsing: "age > %@")
        #expect(try ObjectPredicate(syntax: syntax, arguments: [40]).evaluate(with: bob))
        #expect(try !ObjectPredicate(syntax: syntax, arguments: [50]).evaluate(with: bob))
    }

    @Test func filteringSequences() {
        let people = [alice, bob]
        #expect(people.filtered(using: ObjectPredicate("age > 40")) == [bob])
        #expect([1, 5, 10].filtered(using: ObjectPredicate("SELF BETWEEN {2, 10}")) == [5, 10])
        #expect(["Ada", "Bob"].filtered(using: ObjectPredicate("SELF LIKE[c] 'a*'")) == ["Ada"])
    }

    @Test func isSendable() async {
        let predicate = ObjectPredicate("age > 40")
        let result = await Task.detached { predicate.evaluate(with: ["age": 50]) }.value
        #expect(result)
    }
}
