import DataModelReader
import Testing

private func parse(_ format: String) throws -> PredicateSyntax { try PredicateSyntax(parsing: format) }

private func comparison(_ format: String) throws -> PredicateComparison {
    guard case .comparison(let comparison) = try parse(format) else {
        Issue.record("\(format) is not a comparison")
        throw PredicateSyntaxError("not a comparison", column: 0)
    }
    return comparison
}

@Suite("Predicate syntax: parsing")
struct PredicateParserTests {
    @Test("every operator spelling", arguments: [
        ("a = 1", PredicateOperator.equalTo), ("a == 1", .equalTo), ("a != 1", .notEqualTo),
        ("a <> 1", .notEqualTo), ("a < 1", .lessThan), ("a <= 1", .lessThanOrEqualTo),
        ("a =< 1", .lessThanOrEqualTo), ("a > 1", .greaterThan), ("a >= 1", .greaterThanOrEqualTo),
        ("a => 1", .greaterThanOrEqualTo), ("a BETWEEN {1, 2}", .between), ("a IN {1, 2}", .in),
        ("a CONTAINS 'x'", .contains), ("a BEGINSWITH 'x'", .beginsWith), ("a ENDSWITH 'x'", .endsWith),
        ("a LIKE 'x*'", .like), ("a MATCHES 'x.*'", .matches), ("a contains 'x'", .contains),
        ("a beginswith 'x'", .beginsWith), ("a Like 'x'", .like), ("a in {1}", .in),
    ])
    func operators(format: String, expected: PredicateOperator) throws {
        #expect(try comparison(format).operatorType == expected)
    }

    static let optionCases: [(String, PredicateComparisonOptions)] = [
        ("a ==[c] 'x'", .caseInsensitive),
        ("a CONTAINS[d] 'x'", .diacriticInsensitive),
        ("a LIKE[cd] 'x'", [.caseInsensitive, .diacriticInsensitive]),
        ("a BEGINSWITH[CD] 'x'", [.caseInsensitive, .diacriticInsensitive]),
        ("a ENDSWITH[n] 'x'", .normalized),
        ("a MATCHES[l] 'x'", .localeSensitive),
        ("a ==[dc] 'x'", [.caseInsensitive, .diacriticInsensitive]),
        ("a != 'x'", []),
    ]

    @Test("comparison options", arguments: optionCases)
    func options(format: String, expected: PredicateComparisonOptions) throws {
        #expect(try comparison(format).options == expected)
    }

    @Test func modifiers() throws {
        #expect(try comparison("ANY a.b == 1").modifier == .any)
        #expect(try comparison("some a.b == 1").modifier == .any)
        #expect(try comparison("ALL a.b == 1").modifier == .all)
        #expect(try comparison("NONE a.b == 1").modifier == .none)
        #expect(try comparison("a.b == 1").modifier == .direct)
    }

    @Test func compoundsAndPrecedence() throws {
        let a = PredicateSyntax.comparison(.init(.keyPath("a"), .equalTo, .literal(.integer(1))))
        let b = PredicateSyntax.comparison(.init(.keyPath("b"), .equalTo, .literal(.integer(2))))
        let c = PredicateSyntax.comparison(.init(.keyPath("c"), .equalTo, .literal(.integer(3))))
        #expect(try parse("a == 1 AND b == 2 OR c == 3") == .or([.and([a, b]), c]))
        #expect(try parse("a == 1 || b == 2 && c == 3") == .or([a, .and([b, c])]))
        #expect(try parse("a == 1 and (b == 2 or c == 3)") == .and([a, .or([b, c])]))
        #expect(try parse("NOT a == 1 AND b == 2") == .and([.not(a), b]))
        #expect(try parse("!(a == 1) && !b == 2") == .and([.not(a), .not(b)]))
        #expect(try parse("a == 1 AND b == 2 AND c == 3") == .and([a, b, c]))
        #expect(try parse("(a == 1 AND b == 2) AND c == 3") == .and([.and([a, b]), c]))
        #expect(try parse("TRUEPREDICATE") == .value(true))
        #expect(try parse("falsepredicate OR a == 1") == .or([.value(false), a]))
        #expect(try parse("((a == 1))") == a)
    }

    @Test func parenthesizedExpressionOnTheLeft() throws {
        let parsed = try comparison("(a + b) * 2 > 10")
        #expect(parsed.left == .arithmetic(.multiply, .arithmetic(.add, .keyPath("a"), .keyPath("b")), .literal(.integer(2))))
    }

    @Test func arithmeticPrecedence() throws {
        let e = try PredicateExpressionSyntax(parsing: "1 + 2 * 3 ** 2 - -4 / x")
        #expect(e == .arithmetic(.subtract,
            .arithmetic(.add, .literal(.integer(1)),
                .arithmetic(.multiply, .literal(.integer(2)), .arithmetic(.power, .literal(.integer(3)), .literal(.integer(2))))),
            .arithmetic(.divide, .literal(.integer(-4)), .keyPath("x"))))
        #expect(try PredicateExpressionSyntax(parsing: "-x") == .negation(.keyPath("x")))
        #expect(try PredicateExpressionSyntax(parsing: "-(5)") == .negation(.literal(.integer(5))))
        #expect(try PredicateExpressionSyntax(parsing: "2 ** 3 ** 2") ==
            .arithmetic(.power, .literal(.integer(2)), .arithmetic(.power, .literal(.integer(3)), .literal(.integer(2)))))
    }

    @Test("literals", arguments: [
        ("42", PredicateLiteral.integer(42)), ("-7", .integer(-7)), ("0x1F", .integer(31)),
        ("0o17", .integer(15)), ("0b101", .integer(5)), ("0XfF", .integer(255)), ("2.5", .double(2.5)),
        ("9.2e-5", .double(9.2e-5)), ("1E3", .double(1000)), (".5", .double(0.5)),
        ("2.71828", .double(2.71828)), ("TRUE", .bool(true)), ("yes", .bool(true)),
        ("False", .bool(false)), ("NO", .bool(false)), ("NULL", .null), ("nil", .null),
        ("'text'", .string("text")), ("\"text\"", .string("text")),
        (#"'it\'s'"#, .string("it's")), (#""say \"hi\"""#, .string("say \"hi\"")),
        (#"'a\nb\tc'"#, .string("a\nb\tc")), (#"'\u00e9'"#, .string("é")), (#"'\x41'"#, .string("A")),
        (#"'\101'"#, .string("A")), (#"'back\\slash'"#, .string("back\\slash")),
        (#"'\d+'"#, .string(#"\d+"#)), ("'it''s'", .string("it")),
        ("\"'\"", .string("'")), ("99999999999999999999", .double(1e20)),
    ])
    func literals(text: String, expected: PredicateLiteral) throws {
        if text == "'it''s'" {
            // Two strings side by side are not one string: the second is unexpected.
            #expect(throws: PredicateSyntaxError.self) { try PredicateExpressionSyntax(parsing: text) }
            return
        }
        #expect(try PredicateExpressionSyntax(parsing: text) == .literal(expected))
    }

    @Test func selfArgumentsAndVariables() throws {
        let parsed = try parse("%K == %@ AND SELF != %d AND $NAME < %f AND %s == %lu AND %lld > %i AND %hd < %c")
        let expected: [PredicateExpressionSyntax] = [
            .argument(index: 0, kind: .keyPath), .argument(index: 1, kind: .object),
            .evaluatedObject, .argument(index: 2, kind: .signedInteger),
            .variable("NAME"), .argument(index: 3, kind: .floatingPoint),
            .argument(index: 4, kind: .cString), .argument(index: 5, kind: .unsignedInteger),
            .argument(index: 6, kind: .signedInteger), .argument(index: 7, kind: .signedInteger),
            .argument(index: 8, kind: .signedInteger), .argument(index: 9, kind: .character),
        ]
        guard case .and(let parts) = parsed else { Issue.record("not AND"); return }
        let sides = parts.flatMap { part -> [PredicateExpressionSyntax] in
            guard case .comparison(let c) = part else { return [] }
            return [c.left, c.right]
        }
        #expect(sides == expected)
    }

    @Test func quotedSpecifiersAreText() throws {
        #expect(try comparison("SELF == '%@'").right == .literal(.string("%@")))
        #expect(try comparison("name == \"$VAR\"").right == .literal(.string("$VAR")))
        #expect(try comparison("name == '100%%'").right == .literal(.string("100%%")))
    }

    @Test func keyPathsAndCollectionOperators() throws {
        #expect(try comparison("tweeter.screenName = 'x'").left == .keyPath("tweeter.screenName"))
        #expect(try comparison("tweets.@count > 5").left == .keyPath("tweets.@count"))
        #expect(try comparison("items.@sum.price > 5").left == .keyPath("items.@sum.price"))
        #expect(try comparison("@count > 5").left == .keyPath("@count"))
        #expect(try comparison("icao_ = 'KSFO'").left == .keyPath("icao_"))
        #expect(try comparison("#size == 3").left == .keyPath("size"))
        #expect(try comparison("order.#in == 3").left == .keyPath("order.in"))
        #expect(try comparison("first == 'x'").left == .keyPath("first"))
        #expect(try comparison("SELF.name == 'x'").left == .keyPathOn(.evaluatedObject, "name"))
        #expect(try comparison("$f.age > 3").left == .keyPathOn(.variable("f"), "age"))
        #expect(try comparison("%K.name == 'x'").left == .keyPathOn(.argument(index: 0, kind: .keyPath), "name"))
        #expect(try comparison("größe > 3").left == .keyPath("größe"))
    }

    @Test func indexes() throws {
        #expect(try comparison("list[FIRST] == 1").left == .index(.keyPath("list"), .first))
        #expect(try comparison("list[last] == 1").left == .index(.keyPath("list"), .last))
        #expect(try comparison("list[SIZE] == 1").left == .index(.keyPath("list"), .size))
        #expect(try comparison("list[2] == 1").left == .index(.keyPath("list"), .expression(.literal(.integer(2)))))
        #expect(try comparison("dict['key'].name == 1").left ==
            .keyPathOn(.index(.keyPath("dict"), .expression(.literal(.string("key")))), "name"))
    }

    @Test func functionsAndSpecialForms() throws {
        #expect(try PredicateExpressionSyntax(parsing: "now()") == .function("now", []))
        #expect(try PredicateExpressionSyntax(parsing: "canonical:(optionalString)") ==
            .function("canonical:", [.keyPath("optionalString")]))
        #expect(try PredicateExpressionSyntax(parsing: "sum:({1, 2, 3})") ==
            .function("sum:", [.aggregate([.literal(.integer(1)), .literal(.integer(2)), .literal(.integer(3))])]))
        #expect(try PredicateExpressionSyntax(parsing: "FUNCTION(SELF, 'name')") ==
            .function("FUNCTION", [.evaluatedObject, .literal(.string("name"))]))
        #expect(try PredicateExpressionSyntax(parsing: "cast(0, 'NSDate')") ==
            .function("CAST", [.literal(.integer(0)), .literal(.string("NSDate"))]))
        #expect(try PredicateExpressionSyntax(parsing: "oneToMany.@count") == .keyPath("oneToMany.@count"))
        #expect(try PredicateExpressionSyntax(parsing: "$x := 3") == .assignment(variable: "x", .literal(.integer(3))))
        let subquery = try comparison("SUBQUERY(friends, $f, $f.age > 40 AND $f.name BEGINSWITH 'G').@count > 1").left
        #expect(subquery == .keyPathOn(.subquery(
            collection: .keyPath("friends"), variable: "f",
            predicate: .and([
                .comparison(.init(.keyPathOn(.variable("f"), "age"), .greaterThan, .literal(.integer(40)))),
                .comparison(.init(.keyPathOn(.variable("f"), "name"), .beginsWith, .literal(.string("G")))),
            ])), "@count"))
        #expect(try PredicateExpressionSyntax(parsing: "TERNARY(a > 1, 'big', 'small')") ==
            .ternary(.comparison(.init(.keyPath("a"), .greaterThan, .literal(.integer(1)))),
                     .literal(.string("big")), .literal(.string("small"))))
    }

    @Test func aggregates() throws {
        #expect(try comparison("name IN {'Ben', 'Melissa', 'Nick'}").right ==
            .aggregate([.literal(.string("Ben")), .literal(.string("Melissa")), .literal(.string("Nick"))]))
        #expect(try comparison("x IN {}").right == .aggregate([]))
        #expect(try comparison("x BETWEEN {$LOW, %@ + 1}").right ==
            .aggregate([.variable("LOW"), .arithmetic(.add, .argument(index: 0, kind: .object), .literal(.integer(1)))]))
    }

    @Test func whitespaceIsFree() throws {
        #expect(try parse("a==1&&b<>2") == (try parse("a == 1 AND b != 2")))
        #expect(try parse("\n  a  =\t1  ") == (try parse("a == 1")))
    }
}

@Suite("Predicate syntax: errors name the column")
struct PredicateSyntaxErrorTests {
    @Test("errors", arguments: [
        ("name ==", 8, "expected an expression"),
        ("name", 5, "expected a comparison operator"),
        ("name == 'abc", 9, "unterminated string"),
        ("a == 1 AND", 11, "expected an expression"),
        ("a == 1 b == 2", 8, "unexpected"),
        ("(a == 1", 8, "expected ')'"),
        ("a == 1)", 7, "unexpected ')'"),
        ("a IN {1, 2", 11, "expected '}'"),
        ("a ==[x] 1", 6, "unknown comparison option"),
        ("a == ?", 6, "'?' is not part of the predicate language"),
        ("a == %z", 6, "unsupported format specifier"),
        ("a == %%", 6, "literal percent"),
        ("AND == 1", 1, "keyword AND"),
        ("a == 0x", 6, "no digits"),
        ("a == 12abc", 8, "after a number"),
        ("a == $", 6, "variable name"),
        ("a.@ > 1", 3, "collection operator"),
        ("SUBQUERY(x, y, y > 1).@count > 0", 13, "iteration variable"),
        ("a ~ 1", 3, "unexpected character"),
        ("é == 'x' AND ñ ==", 18, "expected an expression"),
        ("list[FIRST == 1", 12, "expected ']'"),
        ("a == 'x' #", 10, "expected a name after '#'"),
        ("", 1, "expected an expression"),
    ])
    func column(format: String, column: Int, message: String) {
        do {
            let parsed = try PredicateSyntax(parsing: format)
            Issue.record("\"\(format)\" parsed as \(parsed)")
        } catch {
            #expect(error.column == column, "\(format): \(error)")
            #expect(error.message.contains(message), "\(format): \(error)")
        }
    }

    @Test func diagnosticCarriesFileLineAndColumn() throws {
        let error = try #require(throws: PredicateSyntaxError.self) { try PredicateSyntax(parsing: "name ==") }
        let diagnostic = error.diagnostic(file: "Model.xcdatamodel/contents", line: 12, firstColumn: 40)
        #expect(diagnostic.description == "Model.xcdatamodel/contents:12:47: error: invalid predicate: expected an expression, found the end of the predicate")
        let unplaced = error.diagnostic(file: "contents", line: 3)
        #expect(unplaced.description == "contents:3: error: invalid predicate: expected an expression, found the end of the predicate (column 8 of the predicate)")
    }
}
