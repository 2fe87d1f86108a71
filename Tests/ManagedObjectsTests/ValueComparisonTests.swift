import Foundation
@testable import ManagedObjects
import StoreTestSupport
import Testing

/// One comparison and one equality (`ValueComparison`): a sort descriptor, a predicate's
/// `<` and `==`, and change tracking's equality agree on every pair of values. (Strings are
/// the documented exception: a sort's `compare` is `NSString`'s UTF-16 order, a predicate's
/// Unicode canonical equivalence.)
@Suite("One value comparison")
struct ValueComparisonTests {
    struct Pair: CustomTestStringConvertible, @unchecked Sendable {
        // Unchecked: the values are immutable Foundation and standard values.
        var lhs: Any
        var rhs: Any
        /// `nil`: the two do not order (a predicate's `<` is false both ways, a sort keeps them).
        var order: ComparisonResult?
        var testDescription: String { "\(type(of: lhs))(\(lhs)) vs \(type(of: rhs))(\(rhs))" }
    }

    static let pairs: [Pair] = [
        Pair(lhs: Int16(2), rhs: 1.5, order: .orderedDescending),
        Pair(lhs: Int64(3), rhs: 3, order: .orderedSame),
        Pair(lhs: Decimal(1), rhs: Float(1.25), order: .orderedAscending),
        Pair(lhs: true, rhs: Int32(0), order: .orderedDescending),
        Pair(lhs: true, rhs: 1.0, order: .orderedSame),
        // Decimals compare exactly (as Doubles these two are the same).
        Pair(lhs: Decimal(string: "9007199254740993")!, rhs: Int64(9_007_199_254_740_992), order: .orderedDescending),
        Pair(lhs: UInt64.max, rhs: Int64.max, order: .orderedDescending),
        Pair(lhs: NSNumber(value: 2.5), rhs: 2.5, order: .orderedSame),
        // A date against a number: seconds since 2001-01-01.
        Pair(lhs: Date(timeIntervalSinceReferenceDate: 10), rhs: 20.0, order: .orderedAscending),
        Pair(lhs: Date(timeIntervalSinceReferenceDate: 10), rhs: Date(timeIntervalSinceReferenceDate: 5), order: .orderedDescending),
        Pair(lhs: "apple", rhs: "banana", order: .orderedAscending),
        Pair(lhs: UUID(uuidString: "00000000-0000-0000-0000-000000000001")!,
             rhs: UUID(uuidString: "00000000-0000-0000-0000-000000000002")!, order: .orderedAscending),
        Pair(lhs: URL(string: "https://b.example")!, rhs: URL(string: "https://a.example")!, order: .orderedDescending),
        Pair(lhs: Data([1]), rhs: Data([1, 0]), order: .orderedAscending),
        Pair(lhs: "1", rhs: 1, order: nil),
    ]

    @Test(arguments: pairs)
    func sortsPredicatesAndEqualityAgree(_ pair: Pair) {
        let left = PredicateTestRecord("left", ["v": pair.lhs])
        let right = PredicateTestRecord("right", ["v": pair.rhs])
        let sort = ObjectSortDescriptor(key: "v").compare(left, right)
        #expect(sort == pair.order ?? .orderedSame)
        #expect(ObjectPredicate("v < %@", pair.rhs).evaluate(with: left) == (pair.order == .orderedAscending))
        #expect(ObjectPredicate("v > %@", pair.rhs).evaluate(with: left) == (pair.order == .orderedDescending))
        #expect(ObjectPredicate("v == %@", pair.rhs).evaluate(with: left) == (pair.order == .orderedSame))
        #expect(ValueComparison.equal(pair.lhs, pair.rhs) == (pair.order == .orderedSame))
    }

    @Test func nilSortsFirstAndEqualsOnlyNil() {
        let empty = PredicateTestRecord("empty")
        let zero = PredicateTestRecord("zero", ["v": 0])
        #expect(ObjectSortDescriptor(key: "v").compare(empty, zero) == .orderedAscending)
        #expect(ObjectSortDescriptor(key: "v", ascending: false).compare(empty, zero) == .orderedDescending)
        #expect(ObjectSortDescriptor(key: "v").compare(empty, PredicateTestRecord("also empty")) == .orderedSame)
        #expect(ValueComparison.equal(nil, nil))
        #expect(!ValueComparison.equal(nil, 0))
    }

    /// Change tracking compares stored values with the same equality: a Transformable
    /// dictionary changes when a key does, not only when its values do.
    @Test func dictionariesAreEqualKeyByKey() {
        #expect(ValueComparison.equal(["a": 1] as [String: Any], ["a": 1.0] as [String: Any]))
        #expect(!ValueComparison.equal(["a": 1] as [String: Any], ["b": 1] as [String: Any]))
        #expect(!ValueComparison.equal(["a": 1] as [String: Any], ["a": 1, "b": 2] as [String: Any]))
    }

    @Test func distinctKeepsFirstOccurrencesByTheSameEquality() {
        let values: [Any] = [1, Int16(1), 1.0, true, "1", 2, Decimal(2), "1"]
        let distinct = ValueComparison.distinct(values)
        #expect(distinct.count == 3)
        #expect(distinct[0] as? Int == 1)
        #expect(distinct[1] as? String == "1")
        #expect(distinct[2] as? Int == 2)
    }
}
