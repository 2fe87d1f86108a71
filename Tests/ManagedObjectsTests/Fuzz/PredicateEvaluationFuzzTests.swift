import DataModel
import Foundation
import ManagedObjects
import Testing

// SeededRandom.swift and ValidPredicateGenerator.swift here are links to the DataModelTests
// fuzz files: one generator serves the parser's and the evaluator's fuzz tests.

/// Random valid predicates (the parser fuzz test's grammar), compiled into `ObjectPredicate`s
/// with every `%@` given a value, and evaluated on random dictionaries with every `$VARIABLE`
/// bound: evaluating never traps, whatever the kinds of values meet.
@Suite("Fuzz: predicate evaluation")
struct PredicateEvaluationFuzzTests {
    static let seed: UInt64 = 0x5EED_0004

    /// Values of every kind a comparison may meet.
    static func randomValue(_ random: inout SeededRandom, depth: Int = 0) -> Any {
        switch random.int(0..<(depth > 1 ? 9 : 12)) {
        case 0: return random.int(-5...5)
        case 1: return Double(random.int(-100...100)) / 4
        case 2: return random.pick(["", "a b", "Dog", "dog*", "é", "e\u{301}", "名前", "🐕", "x?y", "?at", "(", "[a-"])
        case 3: return random.chance(50)
        case 4: return Date(timeIntervalSinceReferenceDate: Double(random.int(-1000...1000)))
        case 5: return Decimal(random.int(-50...50)) / 4
        case 6: return Int16(truncatingIfNeeded: random.int(-300...300))
        case 7: return NSNull()
        case 8: return UUID(uuidString: "6F9619FF-8B86-D011-B42D-00CF4FC964FF")!
        case 9: return (0..<random.int(0...3)).map { _ in randomValue(&random, depth: depth + 1) }
        case 10: return randomObject(&random, depth: depth + 1)
        default: return Set((0..<random.int(0...3)).map { _ in random.int(0...9) })
        }
    }

    /// A dictionary with some of the keys the generated predicates use, and random values.
    static func randomObject(_ random: inout SeededRandom, depth: Int = 0) -> [String: Any] {
        var object: [String: Any] = [:]
        for key in ["name", "age", "tweets", "owner", "walks", "items", "price", "size", "café", "t"] where random.chance(70) {
            object[key] = randomValue(&random, depth: depth)
        }
        return object
    }

    @Test func randomPredicatesEvaluateOnRandomDictionaries() throws {
        var random = SeededRandom(seed: Self.seed)
        var generator = ValidPredicateGenerator()
        var compiled = 0, refused = 0, evaluations = 0, trueResults = 0
        for _ in 0..<1500 {
            let format = generator.predicate(depth: 0, using: &random)
            let argumentCount = format.components(separatedBy: "%@").count - 1
            let arguments: [Any?] = (0..<argumentCount).map { _ in Self.randomValue(&random) }
            let predicate: ObjectPredicate
            do {
                predicate = try ObjectPredicate(parsing: format, arguments: arguments)
                compiled += 1
            } catch {
                // Refusing is allowed (an argument of the wrong kind for `%K`, say); trapping is not.
                refused += 1
                continue
            }
            let syntax = try PredicateSyntax(parsing: format)
            var variables: [String: Any] = [:]
            for name in syntax.variableNames + ["X", "NAME", "FETCH_SOURCE", "limit"] {
                variables[name] = Self.randomValue(&random)
            }
            for _ in 0..<4 {
                if predicate.evaluate(with: Self.randomObject(&random), substitutionVariables: variables) { trueResults += 1 }
                evaluations += 1
            }
        }
        print("predicate evaluation fuzz: \(compiled) predicates compiled, \(refused) refused, \(evaluations) evaluations, \(trueResults) true")
        #expect(compiled > 1000)
        #expect(trueResults > 0 && trueResults < evaluations)
    }

    /// Found by this fuzz test: a Decimal met an infinite double (`1e999`) in arithmetic and
    /// `Decimal(_: Double)` trapped; compared, the two now order as doubles do.
    @Test func decimalsMeetInfinity() {
        let object: [String: Any] = ["price": Decimal(5)]
        #expect(ObjectPredicate("price * 1e999 > 0").evaluate(with: object))
        #expect(ObjectPredicate("price < 1e999").evaluate(with: object))
        #expect(ObjectPredicate("price > -1e999").evaluate(with: object))
        #expect(!ObjectPredicate("price == 1e999").evaluate(with: object))
    }
}
