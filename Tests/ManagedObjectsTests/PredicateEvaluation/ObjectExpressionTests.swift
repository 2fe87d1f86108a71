import Foundation
import ManagedObjects
import StoreTestSupport
import Testing

/// Derived-attribute expressions as the corpus writes them (`now()`, `canonical:(…)`,
/// `….@count`) and NSExpression's arithmetic and collection forms.
@Suite("ObjectExpression")
struct ObjectExpressionTests {
    let order = PredicateTestRecord("order", [
        "name": "Crème Brûlée",
        "quantity": Int16(3),
        "price": Decimal(string: "2.50")!,
        "items": [
            PredicateTestRecord("a", ["price": 1.5]),
            PredicateTestRecord("b", ["price": 2.5]),
        ],
    ])

    @Test func derivations() throws {
        #expect(try ObjectExpression(parsing: "items.@count").value(with: order) as? Int == 2)
        #expect(try ObjectExpression(parsing: "items.@sum.price").value(with: order) as? Double == 4.0)
        #expect(try ObjectExpression(parsing: "canonical:(name)").value(with: order) as? String == "creme brulee")
        let now = try #require(try ObjectExpression(parsing: "now()").value(with: order) as? Date)
        #expect(abs(now.timeIntervalSinceNow) < 60)
    }

    @Test func arithmetic() throws {
        #expect(try ObjectExpression(parsing: "price * quantity").value(with: order) as? Decimal == Decimal(string: "7.5"))
        #expect(try ObjectExpression(parsing: "quantity + 1").value(with: order) as? Int == 4)
        #expect(try ObjectExpression(parsing: "quantity / 2").value(with: order) as? Double == 1.5)
        #expect(try ObjectExpression(parsing: "2 ** 8").value(with: nil) as? Double == 256)
        #expect(try ObjectExpression(parsing: "-quantity").value(with: order) as? Int == -3)
        #expect(try ObjectExpression(parsing: "missing + 1").value(with: order) == nil)
    }

    @Test func collectionsAndArguments() throws {
        let prices = try #require(try ObjectExpression(parsing: "items.price").value(with: order) as? [Any])
        #expect(prices.compactMap { $0 as? Double }.sorted() == [1.5, 2.5])
        #expect(try ObjectExpression(parsing: "%K", arguments: ["quantity"]).value(with: order) as? Int16 == 3)
        #expect(try ObjectExpression(parsing: "%@ + 1", arguments: [41]).value(with: nil) as? Int == 42)
        #expect(try ObjectExpression(parsing: "$x * 2").value(with: nil, variables: ["x": 21]) as? Int == 42)
        #expect(try ObjectExpression(parsing: "%@ + 1", arguments: [41]).expressionFormat == "41 + 1")
    }

    @Test func errors() {
        #expect(throws: ObjectPredicateError(format: "price *", message: "expected an expression, found the end of the predicate", column: 8)) {
            try ObjectExpression(parsing: "price *")
        }
        #expect(throws: ObjectPredicateError.self) { try ObjectExpression(parsing: "nosuch:(1)") }
    }
}
