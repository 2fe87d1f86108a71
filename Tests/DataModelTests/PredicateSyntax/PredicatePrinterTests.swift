import DataModelReader
import Testing

@Suite("Predicate syntax: printing")
struct PredicatePrinterTests {
    @Test("canonical text", arguments: [
        ("a = 1", "a == 1"),
        ("a <> 1", "a != 1"),
        ("a =< 1", "a <= 1"),
        ("a => 1", "a >= 1"),
        ("name contains[c] %@", "name CONTAINS[c] %@"),
        ("tweeter = %@ && created > %@", "tweeter == %@ AND created > %@"),
        ("any tweets.created > %@", "ANY tweets.created > %@"),
        ("SOME x == 1", "ANY x == 1"),
        ("(a == 1 OR b == 2) AND c == 3", "(a == 1 OR b == 2) AND c == 3"),
        ("NOT (a == 1 AND b == 2)", "NOT (a == 1 AND b == 2)"),
        ("!a == 1", "NOT a == 1"),
        ("name == 'it\\'s'", #"name == "it's""#),
        (#"name == "say \"hi\"""#, #"name == "say \"hi\"""#),
        ("x MATCHES '\\d+'", #"x MATCHES "\\d+""#),
        ("a + b * 2 > 3", "a + (b * 2) > 3"),
        ("(a + b) * 2 > 3", "(a + b) * 2 > 3"),
        ("x == -5", "x == -5"),
        ("x == -(5)", "x == -(5)"),
        ("x == 0x10", "x == 16"),
        ("x == 2.50", "x == 2.5"),
        ("x == 1e3", "x == 1000.0"),
        ("flag == yes", "flag == TRUE"),
        ("x == NIL", "x == nil"),
        ("#size == 3", "#size == 3"),
        ("list[first] == 1", "list[FIRST] == 1"),
        ("canonical:(name) == 'x'", #"canonical:(name) == "x""#),
        ("x IN {1,2 , 3}", "x IN {1, 2, 3}"),
        ("subquery(a, $x, $x.b == 1).@count > 0", "SUBQUERY(a, $x, $x.b == 1).@count > 0"),
        ("TRUEPREDICATE", "TRUEPREDICATE"),
        ("x BETWEEN %@", "x BETWEEN %@"),
        ("x == %d", "x == %d"),
        ("x == %ld", "x == %d"),
        ("x ==[cd] $NAME", "x ==[cd] $NAME"),
    ])
    func canonical(format: String, printed: String) throws {
        let syntax = try PredicateSyntax(parsing: format)
        #expect(syntax.format == printed)
        #expect(try PredicateSyntax(parsing: syntax.format) == syntax)
    }

    @Test func argumentsAndVariablesCanBeRendered() throws {
        let syntax = try PredicateSyntax(parsing: "%K == %@ AND age > $AGE")
        let printer = PredicatePrinter(
            argument: { index, _ in index == 0 ? "name" : "\"Joe\"" },
            variable: { $0 == "AGE" ? "30" : nil })
        #expect(printer.format(syntax) == #"name == "Joe" AND age > 30"#)
    }

    @Test func builtTreesPrintSensibly() {
        let a = PredicateSyntax.comparison(.init(.keyPath("a"), .equalTo, .literal(.integer(1))))
        #expect(PredicateSyntax.and([]).format == "TRUEPREDICATE")
        #expect(PredicateSyntax.or([]).format == "FALSEPREDICATE")
        #expect(PredicateSyntax.and([a]).format == "a == 1")
        #expect(PredicateSyntax.not(.or([a, a])).format == "NOT (a == 1 OR a == 1)")
        let negative = PredicateExpressionSyntax.arithmetic(.power, .literal(.integer(-2)), .literal(.integer(2)))
        #expect(negative.format == "-2 ** 2")
        #expect((try? PredicateExpressionSyntax(parsing: negative.format)) == negative)
    }
}

@Suite("Predicate syntax: variables and key paths")
struct PredicateAnalysisTests {
    @Test func variableComparedWithKeyPath() throws {
        let syntax = try PredicateSyntax(parsing: "oneToOne.name == $NAME OR string == $NEEDLE")
        #expect(syntax.variableUses == [
            PredicateVariableUse(name: "NAME", comparedKeyPath: "oneToOne.name", operatorType: .equalTo),
            PredicateVariableUse(name: "NEEDLE", comparedKeyPath: "string", operatorType: .equalTo),
        ])
        #expect(syntax.variableNames == ["NAME", "NEEDLE"])
        #expect(syntax.keyPaths == ["oneToOne.name", "string"])
    }

    @Test func variableOnTheLeftAndCollections() throws {
        let syntax = try PredicateSyntax(parsing: "$MIN < age AND name IN $NAMES AND age BETWEEN $RANGE AND $TAGS CONTAINS tag AND ANY kids.name ==[c] $KID")
        #expect(syntax.variableUses == [
            PredicateVariableUse(name: "MIN", comparedKeyPath: "age", operatorType: .lessThan),
            PredicateVariableUse(name: "NAMES", comparedKeyPath: "name", operatorType: .in, isCollection: true),
            PredicateVariableUse(name: "RANGE", comparedKeyPath: "age", operatorType: .between, isCollection: true),
            PredicateVariableUse(name: "TAGS", comparedKeyPath: "tag", operatorType: .contains, isCollection: true),
            PredicateVariableUse(name: "KID", comparedKeyPath: "kids.name", operatorType: .equalTo, modifier: .any),
        ])
    }

    @Test func variablesInsideLiteralCollections() throws {
        let syntax = try PredicateSyntax(parsing: "created BETWEEN {$START, $END} AND kind IN {$A, 'fixed'}")
        #expect(syntax.variableUses == [
            PredicateVariableUse(name: "START", comparedKeyPath: "created", operatorType: .between),
            PredicateVariableUse(name: "END", comparedKeyPath: "created", operatorType: .between),
            PredicateVariableUse(name: "A", comparedKeyPath: "kind", operatorType: .in),
        ])
    }

    @Test func fetchSourceIsSpecial() throws {
        let syntax = try PredicateSyntax(parsing: "$FETCH_SOURCE.id == mangaId AND (history == nil OR history.completed == false)")
        let uses = syntax.variableUses
        #expect(uses == [PredicateVariableUse(name: "FETCH_SOURCE", comparedKeyPath: "mangaId", memberKeyPath: "id", operatorType: .equalTo)])
        #expect(uses.allSatisfy { $0.isFetchedPropertyVariable })
        #expect(syntax.keyPaths == ["mangaId", "history", "history.completed"])
    }

    @Test func subqueryVariablesAreNotParameters() throws {
        let syntax = try PredicateSyntax(parsing: "SUBQUERY(friends, $f, $f.age > $AGE AND $f.name == name).@count > 0")
        #expect(syntax.variableNames == ["AGE"])
        #expect(syntax.variableUses.first?.comparedKeyPath == nil)
        #expect(syntax.keyPaths == ["friends", "friends.age", "friends.name", "name"])
    }

    @Test func variablesOutsideComparisons() throws {
        let syntax = try PredicateSyntax(parsing: "age > $BASE + 1 AND %K == %@")
        #expect(syntax.variableUses == [PredicateVariableUse(name: "BASE")])
        #expect(syntax.keyPaths == ["age"])
    }
}
