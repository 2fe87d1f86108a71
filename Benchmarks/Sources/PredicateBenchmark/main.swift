// Predicate evaluation throughput: objects per second for a simple and a compound format
// predicate over 100,000 in-memory objects that answer by key (as managed objects do).
//
//   swift run -c release PredicateBenchmark [object count] [passes]
import Foundation
import ManagedObjects

/// An object answering by key, the way `ManagedObject` answers `value(forKey:)`.
final class Person: KeyValueCoding {
    let name: String
    let age: Int16
    let score: Double

    init(name: String, age: Int16, score: Double) {
        self.name = name
        self.age = age
        self.score = score
    }

    func value(forKey key: String) -> Any? {
        switch key {
        case "name": name
        case "age": age
        case "score": score
        default: nil
        }
    }
}

/// A fixed pseudo-random sequence, so every run measures the same objects.
struct Generator {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15

    mutating func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }
}

let arguments = CommandLine.arguments
let count = arguments.count > 1 ? Int(arguments[1]) ?? 100_000 : 100_000
let passes = arguments.count > 2 ? Int(arguments[2]) ?? 20 : 20

var generator = Generator()
let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
let people: [Person] = (0..<count).map { _ in
    let name = String((0..<(4 + generator.next(8))).map { _ in letters[generator.next(letters.count)] })
    return Person(name: name, age: Int16(generator.next(80)), score: Double(generator.next(500)) / 100)
}

let benchmarks: [(String, ObjectPredicate)] = [
    ("simple", ObjectPredicate("age > 30")),
    ("compound", ObjectPredicate("name BEGINSWITH[c] 'a' AND (age > 30 OR score < 2.5)")),
]

/// The best of `passes` runs of `evaluate` over every object: seconds and matches.
@MainActor
func measure(_ evaluate: (Person) -> Bool) -> (seconds: Double, matches: Int) {
    var best = Double.infinity
    var matches = 0
    for _ in 0..<passes {
        let start = DispatchTime.now().uptimeNanoseconds
        var passMatches = 0
        for person in people where evaluate(person) { passMatches += 1 }
        best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        matches = passMatches
    }
    return (best, matches)
}

print("objects: \(count), passes: \(passes) (best pass reported)")
for (label, predicate) in benchmarks {
    print("\(label): \(predicate.predicateFormat)")
    // Typed: how a fetch evaluates its managed objects. Untyped: an `Any` of unknown type.
    let typed = measure { predicate.evaluate(with: $0) }
    let untyped = measure { predicate.evaluate(with: $0 as Any) }
    for (kind, result) in [("typed", typed), ("as Any", untyped)] {
        print(String(format: "  %@: %.2f ms per pass, %.2f million objects/s, %d matches",
                     kind, result.seconds * 1000, Double(count) / result.seconds / 1e6, result.matches))
    }
}
