import DataModel
import Foundation
import ManagedObjects
import StoreTestSupport
import Testing

/// Runs the conformance table: each format with its arguments against its object, and each
/// parsed format printed and parsed back to the same tree.
@Suite("Predicate conformance")
struct PredicateConformanceTests {
    let cases = PredicateConformanceSuite.all()

    @Test func tableIsLargeAndSourced() {
        let bySource = Dictionary(grouping: cases, by: \.source.group).mapValues(\.count)
        print("predicate conformance cases: \(cases.count) \(bySource.sorted { $0.key < $1.key })")
        #expect(cases.count >= 300)
        #expect(Set(bySource.keys).isSuperset(of: ["Apple pSyntax", "Apple pBNF", "GNUstep tests", "seeds"]))
    }

    @Test func everyCaseEvaluatesAsExpected() {
        for testCase in cases {
            let label = "line \(testCase.line) [\(testCase.source)] \(testCase.format)"
            switch testCase.expected {
            case .result(let expected):
                do {
                    var predicate = try ObjectPredicate(parsing: testCase.format, arguments: testCase.arguments)
                    if !testCase.variables.isEmpty {
                        predicate = predicate.withSubstitutionVariables(testCase.variables)
                    }
                    #expect(predicate.evaluate(with: testCase.object) == expected, "\(label)")
                    if let record = testCase.object as? PredicateTestRecord {
                        // The typed entry point skips a cast; it must answer the same.
                        #expect(predicate.evaluate(with: record) == expected, "\(label) (typed)")
                    }
                } catch {
                    Issue.record("\(label): \(error)")
                }
            case .error(let column):
                do {
                    let predicate = try ObjectPredicate(parsing: testCase.format, arguments: testCase.arguments)
                    Issue.record("\(label): expected an error, built \(predicate)")
                } catch {
                    #expect(error.column == column, "\(label): \(error)")
                    #expect(error.format == testCase.format)
                }
            }
        }
    }

    @Test func everyParsedCasePrintsBackToTheSameTree() throws {
        var checked = 0
        for testCase in cases {
            guard let syntax = try? PredicateSyntax(parsing: testCase.format) else { continue }
            let printed = syntax.format
            do {
                #expect(try PredicateSyntax(parsing: printed) == syntax, "line \(testCase.line): \(testCase.format) → \(printed)")
            } catch {
                Issue.record("line \(testCase.line): \(testCase.format) printed as \(printed), which does not parse: \(error)")
            }
            checked += 1
        }
        #expect(checked >= 250)
    }

    @Test func evaluationIsTheSameAfterPrintingAndParsing() throws {
        for testCase in cases {
            guard case .result(let expected) = testCase.expected,
                  let syntax = try? PredicateSyntax(parsing: testCase.format) else { continue }
            // `now()` is re-evaluated; every other case is deterministic.
            let reparsed = try ObjectPredicate(parsing: syntax.format, arguments: testCase.arguments)
                .withSubstitutionVariables(testCase.variables)
            #expect(reparsed.evaluate(with: testCase.object) == expected, "line \(testCase.line): \(syntax.format)")
        }
    }
}
