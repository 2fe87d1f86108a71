import Foundation
import ManagedObjects

/// Where a conformance case's expected result comes from.
package enum PredicateCaseSource: Hashable, CustomStringConvertible {
    /// Apple, "Predicate Format String Syntax" (Predicates/Articles/pSyntax.html).
    case appleSyntax
    /// Apple, "BNF Definition of Cocoa Predicates" (Predicates/Articles/pBNF.html).
    case appleBNF
    /// Apple, Predicate Programming Guide: "Creating Predicates", "Using Predicates",
    /// "Comparison of NSPredicate and Spotlight…" examples.
    case appleGuide
    /// Foundation value semantics predicates rely on: NSNumber comparison across types,
    /// NSString/NSDate comparison, key-value coding collection operators, NSExpression functions.
    case foundation
    /// GNUstep libs-base, Tests/base/NSPredicate/<file>.
    case gnustep(String)
    /// A seed of this project (/work/shared/seeds): CS193p Tweet/TwitterUser, Dog/Walk, flights.
    case seed(String)
    /// Core Data SQLite store semantics the runtime follows (see `ObjectPredicate`'s notes).
    case coreDataStore

    package var description: String {
        switch self {
        case .appleSyntax: "Apple pSyntax"
        case .appleBNF: "Apple pBNF"
        case .appleGuide: "Apple Predicate Programming Guide"
        case .foundation: "Foundation semantics"
        case .gnustep(let file): "GNUstep \(file)"
        case .seed(let name): "seed \(name)"
        case .coreDataStore: "Core Data store"
        }
    }

    /// The group counted in reports (GNUstep files and seeds together).
    package var group: String {
        switch self {
        case .gnustep: "GNUstep tests"
        case .seed: "seeds"
        default: description
        }
    }
}

package struct PredicateConformanceCase {
    package enum Expected {
        case result(Bool)
        /// `ObjectPredicate(parsing:arguments:)` throws; a syntax error names this column.
        case error(column: Int?)
    }

    package let source: PredicateCaseSource
    package let format: String
    package let arguments: [Any?]
    package let variables: [String: Any]
    package let object: Any?
    package let expected: Expected
    package let line: Int
}

package struct PredicateConformanceSuite {
    private(set) var cases: [PredicateConformanceCase] = []

    mutating func check(
        _ source: PredicateCaseSource, _ format: String, _ arguments: [Any?] = [], on object: Any?,
        _ expected: Bool, variables: [String: Any] = [:], line: Int = #line
    ) {
        cases.append(PredicateConformanceCase(
            source: source, format: format, arguments: arguments, variables: variables,
            object: object, expected: .result(expected), line: line))
    }

    mutating func fails(_ source: PredicateCaseSource, _ format: String, _ arguments: [Any?] = [], column: Int?, line: Int = #line) {
        cases.append(PredicateConformanceCase(
            source: source, format: format, arguments: arguments, variables: [:], object: nil,
            expected: .error(column: column), line: line))
    }

    package static func all() -> [PredicateConformanceCase] {
        var suite = PredicateConformanceSuite()
        suite.appleDocumentation()
        suite.gnustep()
        suite.seeds()
        suite.foundationSemantics()
        suite.coreDataStore()
        suite.errors()
        return suite.cases
    }

    // MARK: Apple's documentation

    private mutating func appleDocumentation() {
        let child10: [String: Any] = ["name": "Kid", "age": 10]
        let child15: [String: Any] = ["name": "Teen", "age": 15]
        let ben: [String: Any] = [
            "firstName": "Ben", "lastName": "Smíth", "name": "Ben", "age": 34, "grade": 7,
            "birthday": Date(timeIntervalSinceReferenceDate: -700_000_000),
            "children": [child10, child15], "group": ["name": "work/home"], "size": 3,
            "car": "Citroën", "array": [5, 6, 7], "employees": [["firstName": "Matthew"], ["firstName": "Ann"]],
        ]
        let s = PredicateCaseSource.appleSyntax

        // Basic comparisons, every spelling.
        check(s, "age = 34", on: ben, true)
        check(s, "age == 34", on: ben, true)
        check(s, "age >= 34", on: ben, true)
        check(s, "age => 35", on: ben, false)
        check(s, "age <= 34", on: ben, true)
        check(s, "age =< 33", on: ben, false)
        check(s, "age > 33", on: ben, true)
        check(s, "age < 34", on: ben, false)
        check(s, "age != 34", on: ben, false)
        check(s, "age <> 35", on: ben, true)
        check(s, "1 BETWEEN { 0 , 33 }", on: nil, true)
        check(s, "age BETWEEN { 0 , 33 }", on: ben, false)
        check(s, "age BETWEEN {34, 40}", on: ben, true)
        check(s, "$INPUT >= 0 AND $INPUT <= 33", on: nil, true, variables: ["INPUT": 20])
        check(s, "$INPUT BETWEEN {0, 33}", on: nil, false, variables: ["INPUT": 40])
        // Boolean value predicates.
        check(s, "TRUEPREDICATE", on: nil, true)
        check(s, "FALSEPREDICATE", on: nil, false)
        check(s, "truepredicate", on: ben, true)
        // Basic compound predicates.
        check(s, "age == 34 AND name == 'Ben'", on: ben, true)
        check(s, "age == 34 && name == 'Bob'", on: ben, false)
        check(s, "age == 1 OR name == 'Ben'", on: ben, true)
        check(s, "age == 1 || name == 'Bob'", on: ben, false)
        check(s, "NOT age == 34", on: ben, false)
        check(s, "!(age == 1)", on: ben, true)
        check(s, "not (age == 1 or name == 'Bob')", on: ben, true)
        // String comparisons.
        check(s, "name BEGINSWITH 'Be'", on: ben, true)
        check(s, "name BEGINSWITH 'be'", on: ben, false)
        check(s, "name BEGINSWITH[c] 'be'", on: ben, true)
        check(s, "name CONTAINS 'e'", on: ben, true)
        check(s, "name CONTAINS 'x'", on: ben, false)
        check(s, "name ENDSWITH 'en'", on: ben, true)
        check(s, "name ENDSWITH 'Be'", on: ben, false)
        check(s, "name LIKE 'B?n'", on: ben, true)
        check(s, "name LIKE 'B*'", on: ben, true)
        check(s, "name LIKE '*n'", on: ben, true)
        check(s, "name LIKE 'B?'", on: ben, false)
        check(s, "name LIKE 'b*'", on: ben, false)
        check(s, "name LIKE[c] 'b*'", on: ben, true)
        check(s, "name MATCHES 'B[a-z]+'", on: ben, true)
        check(s, "name MATCHES 'B'", on: ben, false)
        check(s, "name MATCHES '[A-Z][a-z]{2}'", on: ben, true)
        check(s, "lastName ==[d] 'Smith'", on: ben, true)
        check(s, "lastName == 'Smith'", on: ben, false)
        check(s, "lastName ==[c] 'SMÍTH'", on: ben, true)
        check(s, "lastName ==[cd] 'SMITH'", on: ben, true)
        check(s, "lastName CONTAINS[cd] 'MI'", on: ben, true)
        check(s, "lastName BEGINSWITH[d] 'Smi'", on: ben, true)
        check(s, "lastName ENDSWITH[cd] 'ITH'", on: ben, true)
        check(s, "lastName LIKE[cd] 's*h'", on: ben, true)
        // Aggregate operations.
        check(s, "ANY children.age < 18", on: ben, true)
        check(s, "SOME children.age < 12", on: ben, true)
        check(s, "ALL children.age < 18", on: ben, true)
        check(s, "ALL children.age < 12", on: ben, false)
        check(s, "NONE children.age < 18", on: ben, false)
        check(s, "NONE children.age > 18", on: ben, true)
        check(s, "name IN { 'Ben', 'Melissa', 'Nick' }", on: ben, true)
        check(s, "name IN { 'Melissa', 'Nick' }", on: ben, false)
        check(s, "array[FIRST] == 5", on: ben, true)
        check(s, "array[LAST] == 7", on: ben, true)
        check(s, "array[SIZE] == 3", on: ben, true)
        check(s, "array[1] == 6", on: ben, true)
        check(s, "array[5] == nil", on: ben, true)
        // Identifiers and reserved words.
        check(s, "#size == 3", on: ben, true)
        check(s, "#SIZE == 3", on: ben, false)
        check(s, "%K like %@", ["firstName", "Ben"], on: ben, true)
        check(s, "%K like %@", ["firstName", "Adam"], on: ben, false)
        check(s, "firstName == '%@'", ["Ben"], on: ben, false)
        check(s, "firstName == '%@'", on: ["firstName": "%@"], true)
        check(s, "firstName == \"$NAME\"", on: ["firstName": "$NAME"], true)
        check(s, "firstName == $NAME", on: ben, true, variables: ["NAME": "Ben"])
        check(s, "firstName == $NAME", on: ben, false, variables: ["NAME": "Bob"])
        check(s, "SELF == 'Ben'", on: "Ben", true)
        check(s, "self == 'Ben'", on: "Bob", false)
        // Literals.
        check(s, "FALSE == NO", on: nil, true)
        check(s, "TRUE == YES", on: nil, true)
        check(s, "TRUE == FALSE", on: nil, false)
        check(s, "NULL == NIL", on: nil, true)
        check(s, "0x1F == 31", on: nil, true)
        check(s, "0o17 == 15", on: nil, true)
        check(s, "0b101 == 5", on: nil, true)
        check(s, "2.71828 > 2.7", on: nil, true)
        check(s, "19.75 == 19.75", on: nil, true)
        check(s, "9.2e-5 < 0.0001", on: nil, true)
        check(s, "27 == 27.0", on: nil, true)
        check(s, "'text' == \"text\"", on: nil, true)
        check(s, "{ 'comma', 'separated', 'literal', 'array' } CONTAINS 'literal'", on: nil, true)
        check(s, "'it\\'s' == \"it's\"", on: nil, true)

        let b = PredicateCaseSource.appleBNF
        check(b, "(age == 34)", on: ben, true)
        check(b, "((age == 34) AND (name == 'Ben'))", on: ben, true)
        check(b, "age + 1 == 35", on: ben, true)
        check(b, "age - 4 == 30", on: ben, true)
        check(b, "age * 2 == 68", on: ben, true)
        check(b, "age / 4 == 8.5", on: ben, true)
        check(b, "2 ** 10 == 1024", on: nil, true)
        check(b, "-age == -34", on: ben, true)
        check(b, "(age + 6) / 4 == 10", on: ben, true)
        check(b, "age + 6 / 3 == 36", on: ben, true)
        check(b, "{1, 2, 3} CONTAINS 2", on: nil, true)
        check(b, "{} CONTAINS 2", on: nil, false)
        check(b, "now() > birthday", on: ben, true)
        check(b, "sqrt:(16) == 4", on: nil, true)
        check(b, "abs:(-4) == 4", on: nil, true)
        check(b, "floor:(2.5) == 2", on: nil, true)
        check(b, "ceiling:(2.5) == 3", on: nil, true)
        check(b, "trunc:(-2.5) == -2", on: nil, true)
        check(b, "exp:(0) == 1", on: nil, true)
        check(b, "ln:(1) == 0", on: nil, true)
        check(b, "log:(100) == 2", on: nil, true)
        check(b, "sum:({1, 2, 3}) == 6", on: nil, true)
        check(b, "count:(children) == 2", on: ben, true)
        check(b, "min:(array) == 5", on: ben, true)
        check(b, "max:(array) == 7", on: ben, true)
        check(b, "average:(array) == 6", on: ben, true)
        check(b, "median:({1, 3, 7, 9}) == 5", on: nil, true)
        check(b, "mode:({1, 2, 2, 3}) == 2", on: nil, true)
        check(b, "stddev:({2, 4, 4, 4, 5, 5, 7, 9}) == 2", on: nil, true)
        check(b, "uppercase:(name) == 'BEN'", on: ben, true)
        check(b, "lowercase:(name) == 'ben'", on: ben, true)
        check(b, "TERNARY(age > 30, 'older', 'younger') == 'older'", on: ben, true)
        check(b, "TERNARY(age > 40, 'older', 'younger') == 'older'", on: ben, false)
        check(b, "SUBQUERY(children, $c, $c.age > 12).@count == 1", on: ben, true)
        check(b, "SUBQUERY(children, $c, $c.age > 20).@count > 0", on: ben, false)
        check(b, "children[FIRST].name == 'Kid'", on: ben, true)
        check(b, "group['name'] == 'work/home'", on: ben, true)
        check(b, "SELF.name == 'Ben'", on: ben, true)

        let g = PredicateCaseSource.appleGuide
        check(g, "(lastName like[cd] %@) AND (birthday > %@)", ["SMITH", Date(timeIntervalSinceReferenceDate: -800_000_000)], on: ben, true)
        check(g, "(lastName like[cd] %@) AND (birthday > %@)", ["SMITH", Date(timeIntervalSinceReferenceDate: 0)], on: ben, false)
        check(g, "grade == 7", on: ben, true)
        check(g, "firstName like 'Mark'", on: ben, false)
        check(g, "car contains[cd] 'citroen'", on: ben, true)
        check(g, "car contains 'citroen'", on: ben, false)
        check(g, "group.name matches 'work.*'", on: ben, true)
        check(g, "group.name matches 'home.*'", on: ben, false)
        check(g, "ALL children.age > 12", on: ben, false)
        check(g, "ANY children.age > 12", on: ben, true)
        check(g, "(firstName beginswith 'B') AND (lastName like 'Sm?th')", on: ben, true)
        check(g, "ANY employees.firstName like 'Matthew'", on: ben, true)
        check(g, "ANY employees.firstName like 'Mark'", on: ben, false)
        check(g, "firstName = nil", on: ["lastName": "Smith"], true)
        check(g, "firstName = nil", on: ["firstName": NSNull()], true)
        check(g, "firstName = nil", on: ben, false)
        check(g, "(birthday = nil) OR (birthday > %@)", [Date(timeIntervalSinceReferenceDate: 0)], on: ["name": "x"], true)
        check(g, "(birthday = nil) OR (birthday > %@)", [Date(timeIntervalSinceReferenceDate: 0)], on: ben, false)
        check(g, "SELF MATCHES %@", ["\\d{3}-\\d{4}"], on: "555-1234", true)
        check(g, "SELF MATCHES %@", ["\\d{3}-\\d{4}"], on: "555-12345", false)
        check(g, "SELF IN %@", [["a", "b"]], on: "b", true)
        check(g, "SELF BEGINSWITH[c] %@", ["da"], on: "Dave", true)
    }

    // MARK: GNUstep's tests

    private mutating func gnustep() {
        let record1: [String: Any] = ["Name": "John", "Age": 34, "Children": ["Kid1", "Kid2"]]
        let record2: [String: Any] = ["Name": "Mary", "Age": 30, "Children": ["Kid1", "Girl1"]]
        let dict: [String: Any] = ["title": "A Title", "Record1": record1, "Record2": record2]
        var s = PredicateCaseSource.gnustep("basic.m")
        check(s, "%@ CONTAINS %@", ["AABBBAA", "BBB"], on: dict, true)
        check(s, "%@ IN %@", ["BBB", "AABBBAA"], on: dict, true)
        check(s, "%K == %@", ["Record1.Name", "John"], on: dict, true)
        check(s, "%K MATCHES[c] %@", ["Record1.Name", "john"], on: dict, true)
        check(s, "%K BEGINSWITH %@", ["Record1.Name", "Jo"], on: dict, true)
        check(s, "(%K == %@) AND (%K == %@)", ["Record1.Name", "John", "Record2.Name", "Mary"], on: dict, true)
        check(s, "%K == %d", ["Record1.Age", 34], on: dict, true)
        check(s, "%K = %@", ["Record1.Age", NSNumber(value: 34)], on: dict, true)
        check(s, "%K == %@", ["Record1.Age", NSNumber(value: 34)], on: dict, true)
        check(s, "%K < %d", ["Record1.Age", 40], on: dict, true)
        check(s, "%K < %@", ["Record1.Age", NSNumber(value: 40)], on: dict, true)
        check(s, "%K <= %@", ["Record1.Age", NSNumber(value: 40)], on: dict, true)
        check(s, "%K <= %@", ["Record1.Age", NSNumber(value: 34)], on: dict, true)
        check(s, "%K > %@", ["Record1.Age", NSNumber(value: 20)], on: dict, true)
        check(s, "%K >= %@", ["Record1.Age", NSNumber(value: 34)], on: dict, true)
        check(s, "%K >= %@", ["Record1.Age", NSNumber(value: 20)], on: dict, true)
        check(s, "%K != %@", ["Record1.Age", NSNumber(value: 20)], on: dict, true)
        check(s, "%K <> %@", ["Record1.Age", NSNumber(value: 20)], on: dict, true)
        check(s, "%K BETWEEN %@", ["Record1.Age", [NSNumber(value: 20), NSNumber(value: 40)]], on: dict, true)
        check(s, "(%K == %d) OR (%K == %d)", ["Record1.Age", 34, "Record2.Age", 34], on: dict, true)
        check(s, "%K < %f", ["Record1.Age", 40.5], on: dict, true)
        check(s, "%f > %K", [40.5, "Record1.Age"], on: dict, true)
        check(s, "%@ IN %K", ["Kid1", "Record1.Children"], on: dict, true)
        check(s, "Any %K == %@", ["Record2.Children", "Girl1"], on: dict, true)
        check(s, "title == 'A Title'", on: dict, true)
        check(s, "Record1.Name == 'John'", on: dict, true)
        check(s, "Record2.Age == 30", on: dict, true)
        check(s, "SELF == 'Do'", on: "Do", true)
        check(s, "SELF == 'Do'", on: "Re", false)
        check(s, "description == 'Do'", on: "Do", true)
        check(s, "description == 'Do'", on: "Mi", false)
        check(s, "SELF == '%@'", ["Do"], on: "Do", false)
        check(s, "SELF == 'aaa'", on: "aaa", true)

        s = .gnustep("comparisonOptions.m")
        let ada: [String: Any] = ["name": "Ada"]
        let aged: [String: Any] = ["age": 41]
        check(s, "name ==[c] %@", ["ada"], on: ada, true)
        check(s, "name !=[c] %@", ["ada"], on: ada, false)
        check(s, "name == %@", ["ada"], on: ada, false)
        check(s, "name == %@", ["Ada"], on: ada, true)
        check(s, "name !=[c] %@", ["grace"], on: ada, true)
        check(s, "age ==[c] %d", [41], on: aged, true)
        check(s, "age ==[c] %d", [42], on: aged, false)
        check(s, "name <[c] %@", ["b"], on: ada, true)
        check(s, "name BEGINSWITH[c] %@", ["a"], on: ada, true)

        s = .gnustep("formatOperators.m")
        check(s, "%@ > %@", [NSNumber(value: 1), NSNumber(value: 1)], on: nil, false)
        check(s, "1 > 1", on: nil, false)
        check(s, "a < 1", on: ["a": 0], true)
        check(s, "a <= 1", on: ["a": 1], true)
        check(s, "a > 1", on: ["a": 1], false)
        check(s, "a >= 1", on: ["a": 1], true)
        check(s, "a = 1", on: ["a": 1], true)
        check(s, "a != 1", on: ["a": 1], false)

        s = .gnustep("likeWildcards.m")
        check(s, "SELF LIKE %@", ["a*"], on: "abc", true)
        check(s, "SELF LIKE %@", ["a*"], on: "a", true)
        check(s, "SELF LIKE %@", ["a*"], on: "a\nb", true)
        check(s, "SELF LIKE %@", ["a?b"], on: "axb", true)
        check(s, "SELF LIKE %@", ["a?b"], on: "ab", false)
        check(s, "SELF LIKE %@", ["a?b"], on: "axxb", false)
        check(s, "SELF LIKE %@", ["a.b"], on: "a.b", true)
        check(s, "SELF LIKE %@", ["a.b"], on: "axb", false)
        check(s, "SELF LIKE %@", ["a+b"], on: "a+b", true)
        check(s, "SELF LIKE %@", ["a+b"], on: "aab", false)
        check(s, "SELF LIKE %@", ["a(b"], on: "a(b", true)
        check(s, "SELF LIKE %@", ["[ab]"], on: "[ab]", true)
        check(s, "SELF LIKE %@", ["[ab]"], on: "a", false)
        check(s, "SELF LIKE %@", ["a|x"], on: "x", false)
        check(s, "SELF LIKE %@", ["a$^b"], on: "a$^b", true)
        check(s, "SELF LIKE %@", ["a\\*b"], on: "a*b", true)
        check(s, "SELF LIKE %@", ["a\\*b"], on: "axb", false)
        check(s, "SELF LIKE %@", ["a\\?"], on: "a?", true)
        check(s, "SELF LIKE %@", ["a\\?"], on: "ab", false)
        check(s, "SELF LIKE %@", ["a\\\\b"], on: "a\\b", true)
        check(s, "SELF LIKE[c] %@", ["A?C"], on: "abc", true)

        s = .gnustep("matchesLineAnchors.m")
        check(s, "SELF MATCHES %@", [".*^b$"], on: "a\nb", true)
        check(s, "SELF MATCHES %@", ["^a$.*"], on: "a\nb", true)
        check(s, "SELF MATCHES %@", ["a$\\nb"], on: "a\nb", true)
        check(s, "SELF MATCHES %@", ["a\\n^b"], on: "a\nb", true)
        check(s, "SELF MATCHES %@", ["^ab$"], on: "ab", true)
        check(s, "SELF MATCHES %@", ["^b$"], on: "a\nb", false)
        check(s, "SELF MATCHES %@", ["^a$"], on: "a\nb", false)
        check(s, "SELF MATCHES %@", ["a.b"], on: "a\nb", true)

        s = .gnustep("subquery.m")
        func person(_ name: String, _ age: Int, _ friends: [[String: Any]] = []) -> [String: Any] {
            ["name": name, "age": age, "friends": friends]
        }
        let alan = person("Alan", 41)
        let grace = person("Grace", 45)
        let adaPerson = person("Ada", 36, [alan, grace])
        let loner = person("Edsger", 50)
        check(s, "SUBQUERY(friends, $f, $f.age > %d).@count > %d", [40, 1], on: adaPerson, true)
        check(s, "SUBQUERY(friends, $f, $f.age > %d).@count > %d", [40, 1], on: alan, false)
        check(s, "SUBQUERY(friends, $f, $f.age > %d).@count == 0", [40], on: loner, true)
        check(s, "SUBQUERY(friends, $f, $f.age > age).@count == 2", on: adaPerson, true)
        check(s, "SUBQUERY(friends, $f, $f.name == \"Grace\" AND $f.age > age).@count == 1", on: adaPerson, true)
        check(s, "$x.age > %d", [40], on: nil, true, variables: ["x": alan])

        s = .gnustep("contains.m")
        let xyz: [String: Any] = ["name": "xyz", "list": ["a", "b"]]
        check(s, "name CONTAINS 'y'", on: xyz, true)
        check(s, "name CONTAINS 'q'", on: xyz, false)
        check(s, "name CONTAINS[c] 'Y'", on: xyz, true)
        check(s, "name CONTAINS 'Y'", on: xyz, false)
        check(s, "list CONTAINS 'a'", on: xyz, true)
        check(s, "list CONTAINS 'z'", on: xyz, false)
        check(s, "name IN 'wxyz'", on: xyz, true)
        check(s, "'a' IN list", on: xyz, true)

        s = .gnustep("compound.m")
        let alice: [String: Any] = ["name": "Alice", "age": 30]
        check(s, "NOT (name == 'Bob')", on: alice, true)
        check(s, "NOT (name == 'Alice')", on: alice, false)
        check(s, "name ENDSWITH 'ce'", on: alice, true)
        check(s, "name ENDSWITH 'xy'", on: alice, false)
        check(s, "name == 'Alice' AND age == 30", on: alice, true)
        check(s, "name == 'Alice' AND age == 99", on: alice, false)
        check(s, "name == 'Alice' OR age == 99", on: alice, true)

        s = .gnustep("nsnull.m")
        let dict1: [String: Any] = ["key": "value1"]
        let dict2: [String: Any] = ["key": "value2"]
        check(s, "key == %@", ["value2"], on: dict2, true)
        check(s, "key == %@", ["value2"], on: dict1, false)
        check(s, "key == %@", ["value2"], on: NSNull(), false)
        check(s, "key == %@", ["nonexistent"], on: dict2, false)
        check(s, "anotherKey == %@", ["value1"], on: dict1, false)

        s = .gnustep("expressionTypes.m")
        check(s, "SELF == %@", ["x"], on: "x", true)
        check(s, "SELF == %@", ["x"], on: "y", false)

        s = .gnustep("functionNames.m")
        let numbers = [1, 2, 3]
        check(s, "sum:(%@) == 6", [numbers], on: nil, true)
        check(s, "sum(%@) == 6", [numbers], on: nil, true)
        check(s, "average:(%@) == 2", [numbers], on: nil, true)
        check(s, "avg(%@) == 2", [numbers], on: nil, true)
        check(s, "count:(%@) == 3", [numbers], on: nil, true)
        check(s, "max:(%@) == 3", [numbers], on: nil, true)
        check(s, "min:(%@) == 1", [numbers], on: nil, true)
        fails(s, "nosuchfunction:(%@) == 1", [numbers], column: nil)

        s = .gnustep("arithmeticFunctionNames.m")
        let ab: [String: Any] = ["a": 8, "b": 2]
        check(s, "a + b == 10", on: ab, true)
        check(s, "a - b == 6", on: ab, true)
        check(s, "a * b == 16", on: ab, true)
        check(s, "a / b == 4", on: ab, true)
        check(s, "a ** b == 64", on: ab, true)
        check(s, "a + b * 2 == 12", on: ab, true)
    }

    // MARK: Seeds

    private mutating func seeds() {
        let twitter = PredicateSeedGraphs.Twitter()
        let tweet = twitter.joeTweets[0]
        var s = PredicateCaseSource.seed("CS193p")
        check(s, "text contains[c] %@", ["core data"], on: tweet, true)
        check(s, "text contains[c] %@", ["swiftui"], on: tweet, false)
        check(s, "text contains %@", ["core data"], on: tweet, false)
        check(s, "tweeter = %@ && created > %@", [twitter.joe, PredicateSeedGraphs.yesterday], on: tweet, true)
        check(s, "tweeter = %@ && created > %@", [twitter.joe, PredicateSeedGraphs.yesterday], on: twitter.joeTweets[1], false)
        check(s, "tweeter = %@ && created > %@", [twitter.ann, PredicateSeedGraphs.yesterday], on: tweet, false)
        check(s, "tweeter.screenName = %@", ["CS193p"], on: tweet, true)
        check(s, "tweeter.screenName = %@", ["CS193p"], on: twitter.annTweet, false)
        check(s, "tweeter.name = %@", ["Joe"], on: tweet, true)
        check(s, "tweets.text contains %@", ["Stanford"], on: twitter.ann, true)
        check(s, "tweets.text contains %@", ["Stanford"], on: twitter.joe, false)
        check(s, "tweets.@count > 5", on: twitter.joe, true)
        check(s, "tweets.@count > 5", on: twitter.ann, false)
        check(s, "any tweets.created > %@", [PredicateSeedGraphs.yesterday], on: twitter.joe, true)
        check(s, "any tweets.created > %@", [PredicateSeedGraphs.yesterday], on: twitter.ann, false)
        check(s, "(name = %@) OR (title = %@)", ["Joe", "Prof"], on: twitter.joe, true)
        check(s, "(name = %@) OR (title = %@)", ["Bob", "Prof"], on: twitter.joe, false)
        check(s, "(name = %@) OR (title = %@)", ["Bob", "Prof"], on: ["name": "Al", "title": "Prof"], true)

        let dogs = PredicateSeedGraphs.DogWalk()
        s = .seed("Dog/Walk")
        check(s, "%K == %@", ["name", "Fido"], on: dogs.fido, true)
        check(s, "%K == %@", ["name", "Fido"], on: dogs.rex, false)
        check(s, "walks.@count == 2", on: dogs.fido, true)
        check(s, "walks.@count == 0", on: dogs.rex, true)
        check(s, "walks[LAST].date > %@", [PredicateSeedGraphs.yesterday], on: dogs.fido, true)
        check(s, "walks[FIRST].date > %@", [PredicateSeedGraphs.yesterday], on: dogs.fido, false)
        check(s, "dog.name == 'Fido'", on: (dogs.fido.values["walks"] as? OrderedSet<PredicateTestRecord>)?.first, true)
        check(s, "ANY walks.date < %@", [PredicateSeedGraphs.yesterday], on: dogs.fido, true)
        check(s, "ALL walks.date < %@", [PredicateSeedGraphs.yesterday], on: dogs.fido, false)

        let flights = PredicateSeedGraphs.Flights()
        s = .seed("Flight/Airport")
        check(s, "icao_ = %@", ["KSFO"], on: flights.sfo, true)
        check(s, "icao_ = %@", ["KSFO"], on: flights.lax, false)
        check(s, "destination_ = %@ AND origin_ = %@", [flights.sfo, flights.lax], on: flights.flight, true)
        check(s, "destination_ = %@ AND origin_ = %@", [flights.lax, flights.sfo], on: flights.flight, false)
        check(s, "destination_ = %@ AND origin_ = %@ AND airline_ = %@ AND inAir = YES",
              [flights.sfo, flights.lax, flights.united], on: flights.flight, true)
        check(s, "destination_.icao_ = %@", ["KSFO"], on: flights.flight, true)
        check(s, "flightsTo_.@count > 0", on: flights.sfo, true)
        check(s, "flightsTo_.@count > 0", on: flights.lax, false)
        check(s, "icao_ IN %@", [Set(["KSFO", "KOAK"])], on: flights.sfo, true)
        check(s, "name_ CONTAINS[c] %@ OR icao_ CONTAINS[c] %@", ["angeles", "angeles"], on: flights.lax, true)
        check(s, "name_ CONTAINS[c] %@ OR icao_ CONTAINS[c] %@", ["ksf", "ksf"], on: flights.sfo, true)
        check(s, "name_ CONTAINS[c] %@ OR icao_ CONTAINS[c] %@", ["ksf", "ksf"], on: flights.lax, false)
        check(s, "airline_.code_ == %@ AND arrival_ >= %@", ["UAL", PredicateSeedGraphs.yesterday], on: flights.flight, true)
    }

    // MARK: Foundation semantics

    private mutating func foundationSemantics() {
        let values: [String: Any] = [
            "i16": Int16(30), "i32": Int32(30), "i64": Int64(30), "d": 30.0, "f": Float(30),
            "dec": Decimal(30), "ns": NSNumber(value: 30), "u8": UInt8(30), "half": 2.5, "neg": -4,
            "yes": true, "no": false, "big": Int64.max, "null": NSNull(), "optional": Int?.none as Any,
            "someOptional": Int?.some(30) as Any,
            "name": "Ada", "city": "Zürich", "empty": "", "created": Date(timeIntervalSinceReferenceDate: 1000),
            "tags": ["swift", "objc", "c"], "scores": [3, 7, 1, 9], "letters": Set(["a", "b"]),
            "ordered": OrderedSet([1, 2, 3]), "nothing": [Int](), "prices": [Decimal(string: "1.10")!, Decimal(string: "2.20")!],
            "uuid": UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!,
            "url": URL(string: "https://example.com/a")!, "data": Data([1, 2, 3]),
            "people": [["city": "Paris"], ["city": "Rome"], ["city": "Paris"]],
            "point": PredicateTestPoint(x: 3, y: 4),
        ]
        let s = PredicateCaseSource.foundation
        // NSString's contains: an empty string is in nothing; ASCII and other text alike.
        check(s, "%@ CONTAINS ''", ["abc"], on: values, false)
        check(s, "%@ CONTAINS[c] 'SWIFT'", ["Learning swift today"], on: values, true)
        check(s, "%@ CONTAINS 'SWIFT'", ["Learning swift today"], on: values, false)
        check(s, "%@ CONTAINS[c] 'swifts'", ["Learning swift"], on: values, false)
        check(s, "%@ CONTAINS[c] 'ÉTÉ'", ["un été chaud"], on: values, true)
        check(s, "%@ CONTAINS[c] 'swift'", ["Ça, c'est SWIFT"], on: values, true)
        check(s, "%@ CONTAINS 'e\u{301}'", ["caf\u{E9}"], on: values, true)
        // Numbers compare by value across types (NSNumber semantics).
        check(s, "i16 == 30", on: values, true)
        check(s, "i16 == 30.0", on: values, true)
        check(s, "i32 == i64", on: values, true)
        check(s, "i16 == d", on: values, true)
        check(s, "f == 30", on: values, true)
        check(s, "u8 == 30", on: values, true)
        check(s, "dec == 30", on: values, true)
        check(s, "d == %@", [Decimal(30)], on: values, true)
        check(s, "ns == 30", on: values, true)
        check(s, "ns == %@", [Int16(30)], on: values, true)
        check(s, "someOptional == 30", on: values, true)
        check(s, "i16 < 30.5", on: values, true)
        check(s, "i16 > 29.99", on: values, true)
        check(s, "dec < 30.5", on: values, true)
        check(s, "dec > %@", [Decimal(string: "29.9")!], on: values, true)
        check(s, "half > 2", on: values, true)
        check(s, "half == 2.5", on: values, true)
        check(s, "half == 2", on: values, false)
        check(s, "neg < 0", on: values, true)
        check(s, "neg == -4", on: values, true)
        check(s, "big > 9.0e18", on: values, true)
        check(s, "big == %@", [Int64.max], on: values, true)
        check(s, "yes == YES", on: values, true)
        check(s, "yes == 1", on: values, true)
        check(s, "yes == 2", on: values, false)
        check(s, "no == NO", on: values, true)
        check(s, "no == 0", on: values, true)
        check(s, "yes == %@", [true], on: values, true)
        check(s, "i16 BETWEEN {29, 31}", on: values, true)
        check(s, "i16 BETWEEN {30, 30}", on: values, true)
        check(s, "i16 BETWEEN {31, 40}", on: values, false)
        check(s, "half BETWEEN {2, 3}", on: values, true)
        check(s, "d IN {10, 30}", on: values, true)
        check(s, "d IN {10, 20}", on: values, false)
        check(s, "i16 IN %@", [[30.0]], on: values, true)
        check(s, "i16 == '30'", on: values, false)
        check(s, "name > 5", on: values, false)
        check(s, "name == 5", on: values, false)
        check(s, "%d == %u", [7, UInt(7)], on: nil, true)
        check(s, "%lld == %hd", [Int64(7), Int16(7)], on: nil, true)
        check(s, "%f == 2.5", [2.5], on: nil, true)
        check(s, "%s == 'abc'", ["abc"], on: nil, true)
        check(s, "%i + %ld == 10", [4, 6], on: nil, true)
        // nil
        check(s, "missing == nil", on: values, true)
        check(s, "missing != nil", on: values, false)
        check(s, "null == nil", on: values, true)
        check(s, "optional == nil", on: values, true)
        check(s, "name == nil", on: values, false)
        check(s, "name != nil", on: values, true)
        check(s, "%@ == nil", [nil], on: nil, true)
        check(s, "%@ == %@", [nil, nil], on: nil, true)
        check(s, "missing < 5", on: values, false)
        check(s, "missing > 5", on: values, false)
        check(s, "missing <= 5", on: values, false)
        check(s, "missing == 5", on: values, false)
        check(s, "missing != 5", on: values, true)
        check(s, "missing BEGINSWITH 'a'", on: values, false)
        check(s, "missing CONTAINS 'a'", on: values, false)
        check(s, "missing LIKE '*'", on: values, false)
        check(s, "missing MATCHES '.*'", on: values, false)
        check(s, "missing IN {1, 2}", on: values, false)
        check(s, "missing BETWEEN {1, 2}", on: values, false)
        check(s, "nil IN {1, nil}", on: nil, true)
        // Dates.
        check(s, "created > %@", [Date(timeIntervalSinceReferenceDate: 999)], on: values, true)
        check(s, "created == %@", [Date(timeIntervalSinceReferenceDate: 1000)], on: values, true)
        check(s, "created < %@", [Date(timeIntervalSinceReferenceDate: 1000)], on: values, false)
        check(s, "created BETWEEN %@", [[Date(timeIntervalSinceReferenceDate: 0), Date(timeIntervalSinceReferenceDate: 2000)]], on: values, true)
        check(s, "created < now()", on: values, true)
        check(s, "created > CAST(0, 'NSDate')", on: values, true)
        check(s, "created == CAST(1000, \"NSDate\")", on: values, true)
        check(s, "CAST(created, 'NSNumber') == 1000", on: values, true)
        check(s, "CAST('12.5', 'NSNumber') == 12.5", on: nil, true)
        check(s, "created + 60 == CAST(1060, 'NSDate')", on: values, true)
        // Strings.
        check(s, "name < 'Bob'", on: values, true)
        check(s, "name > 'Aardvark'", on: values, true)
        check(s, "name <[c] 'ada'", on: values, false)
        check(s, "name <=[c] 'ada'", on: values, true)
        check(s, "name >=[c] 'ADA'", on: values, true)
        check(s, "city ==[d] 'Zurich'", on: values, true)
        check(s, "city ==[c] 'ZÜRICH'", on: values, true)
        check(s, "city == 'Zurich'", on: values, false)
        check(s, "city ==[cd] 'ZURICH'", on: values, true)
        check(s, "city ENDSWITH[cd] 'RICH'", on: values, true)
        check(s, "city MATCHES[c] 'z.rich'", on: values, true)
        check(s, "city MATCHES[cd] 'zurich'", on: values, true)
        check(s, "empty == ''", on: values, true)
        check(s, "empty LIKE '*'", on: values, true)
        check(s, "empty LIKE '?'", on: values, false)
        check(s, "name LIKE '*a*'", on: values, true)
        check(s, "name LIKE 'A**a'", on: values, true)
        check(s, "name LIKE '???'", on: values, true)
        check(s, "name LIKE '????'", on: values, false)
        check(s, "name MATCHES 'A.a'", on: values, true)
        check(s, "name MATCHES 'A'", on: values, false)
        check(s, "name MATCHES '.d.'", on: values, true)
        check(s, "name MATCHES[c] 'ADA'", on: values, true)
        check(s, "name MATCHES 'ADA'", on: values, false)
        check(s, "name MATCHES %@", ["A|Ada"], on: values, true)
        check(s, "name BEGINSWITH %@", ["A"], on: values, true)
        check(s, "name ENDSWITH[c] %@", ["DA"], on: values, true)
        check(s, "'Ada Lovelace' CONTAINS name", on: values, true)
        check(s, "name IN 'Lovelace, Ada'", on: values, true)
        check(s, "name IN[c] 'ADA LOVELACE'", on: values, true)
        check(s, "canonical:(city) == 'zurich'", on: values, true)
        // Collections and KVC collection operators.
        check(s, "tags CONTAINS 'swift'", on: values, true)
        check(s, "tags CONTAINS[c] 'SWIFT'", on: values, true)
        check(s, "tags CONTAINS 'SWIFT'", on: values, false)
        check(s, "'objc' IN tags", on: values, true)
        check(s, "'java' IN tags", on: values, false)
        check(s, "tags.@count == 3", on: values, true)
        check(s, "scores.@sum == 20", on: values, true)
        check(s, "scores.@avg == 5", on: values, true)
        check(s, "scores.@min == 1", on: values, true)
        check(s, "scores.@max == 9", on: values, true)
        check(s, "prices.@sum == %@", [Decimal(string: "3.30")!], on: values, true)
        check(s, "people.@distinctUnionOfObjects.city CONTAINS 'Rome'", on: values, true)
        check(s, "count:(people.@distinctUnionOfObjects.city) == 2", on: values, true)
        check(s, "count:(people.@unionOfObjects.city) == 3", on: values, true)
        check(s, "ANY scores > 8", on: values, true)
        check(s, "ANY scores > 9", on: values, false)
        check(s, "ALL scores > 0", on: values, true)
        check(s, "ALL scores > 1", on: values, false)
        check(s, "NONE scores > 9", on: values, true)
        check(s, "NONE scores > 8", on: values, false)
        check(s, "ANY nothing > 0", on: values, false)
        check(s, "ALL nothing > 0", on: values, true)
        check(s, "NONE nothing > 0", on: values, true)
        check(s, "ANY tags BEGINSWITH 'ob'", on: values, true)
        check(s, "ALL tags MATCHES '[a-z]+'", on: values, true)
        check(s, "letters.@count == 2", on: values, true)
        check(s, "'a' IN letters", on: values, true)
        check(s, "letters CONTAINS 'c'", on: values, false)
        check(s, "ordered[FIRST] == 1", on: values, true)
        check(s, "ordered[LAST] == 3", on: values, true)
        check(s, "ordered[SIZE] == 3", on: values, true)
        check(s, "3 IN ordered", on: values, true)
        check(s, "tags[1] == 'objc'", on: values, true)
        check(s, "@count == 4", on: [3, 7, 1, 9], true)
        check(s, "@sum > 19", on: [3, 7, 1, 9], true)
        check(s, "SELF[FIRST] == 3", on: [3, 7, 1, 9], true)
        check(s, "ANY SELF == 7", on: [3, 7, 1, 9], true)
        check(s, "SELF CONTAINS 7", on: Set([3, 7]), true)
        check(s, "SELF IN %@", [[1, 2]], on: 2, true)
        check(s, "SELF == 2", on: 2.0, true)
        check(s, "SELF > 1", on: NSNumber(value: 1.5), true)
        // Other value types.
        check(s, "uuid == %@", [UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!], on: values, true)
        check(s, "uuid == %@", [UUID()], on: values, false)
        check(s, "url == %@", [URL(string: "https://example.com/a")!], on: values, true)
        check(s, "data == %@", [Data([1, 2, 3])], on: values, true)
        check(s, "data != %@", [Data([1, 2])], on: values, true)
        // Key-value coding on plain Swift values, through their stored properties.
        check(s, "point.x == 3 AND point.y > 3", on: values, true)
        check(s, "x * x + y * y == 25", on: PredicateTestPoint(x: 3, y: 4), true)
        check(s, "length == 3", on: "Ada", true)
    }

    // MARK: Core Data store semantics

    private mutating func coreDataStore() {
        let s = PredicateCaseSource.coreDataStore
        let stored = PredicateStoredTestRecord("user", id: 7, ["name": "Joe"])
        let copy = PredicateStoredTestRecord("user again", id: 7)
        let other = PredicateStoredTestRecord("other", id: 8)
        let tweet = PredicateTestRecord("tweet", ["tweeter": stored])
        check(s, "tweeter == %@", [stored], on: tweet, true)
        check(s, "tweeter == %@", [PredicateTestObjectID(number: 7)], on: tweet, true)
        check(s, "tweeter == %@", [copy], on: tweet, true)
        check(s, "tweeter == %@", [other], on: tweet, false)
        check(s, "tweeter != %@", [PredicateTestObjectID(number: 8)], on: tweet, true)
        check(s, "tweeter IN %@", [[PredicateTestObjectID(number: 8), PredicateTestObjectID(number: 7)]], on: tweet, true)
        check(s, "tweeter == %@", [PredicateTestRecord("plain")], on: tweet, false)
        check(s, "SELF == %@", [PredicateTestObjectID(number: 7)], on: stored, true)

        let groupA = PredicateTestRecord("a", ["members": Set([PredicateTestRecord("m1", ["age": 20]), PredicateTestRecord("m2", ["age": 40])])])
        let groupB = PredicateTestRecord("b", ["members": Set([PredicateTestRecord("m3", ["age": 60])])])
        let club = PredicateTestRecord("club", ["groups": [groupA, groupB]])
        // A key path through to-many relationships compares as ANY, and reaches every member.
        check(s, "groups.members.age > 50", on: club, true)
        check(s, "groups.members.age > 70", on: club, false)
        check(s, "groups.members.age == 40", on: club, true)
        check(s, "ALL groups.members.age >= 20", on: club, true)
        check(s, "NONE groups.members.age < 10", on: club, true)
        check(s, "groups.members.@count == 3", on: club, true)
        check(s, "groups.@count == 2", on: club, true)
        check(s, "groups.members.@max.age == 60", on: club, true)
        check(s, "40 IN groups.members.age", on: club, true)
        check(s, "groups.members.age != 20", on: club, true)
    }

    // MARK: Errors

    private mutating func errors() {
        let s = PredicateCaseSource.appleSyntax
        // "The question mark (?) character is not a valid parser token."
        fails(s, "name == ?", column: 9)
        fails(s, "name ==", column: 8)
        fails(s, "name", column: 5)
        fails(s, "== 'x'", column: 1)
        fails(s, "name == 'x", column: 9)
        fails(s, "name == \"x", column: 9)
        fails(s, "(name == 'x'", column: 13)
        fails(s, "name == 'x')", column: 12)
        fails(s, "name IN {'a', 'b'", column: 18)
        fails(s, "name ==[q] 'x'", column: 9)
        fails(s, "name == 'x' AND", column: 16)
        fails(s, "name == 'x' OR OR age == 1", column: 16)
        fails(s, "AND == 1", column: 1)
        fails(s, "size == 0x", column: 9)
        fails(s, "n == 0b102", column: 10)
        fails(s, "n == 1.5.3", column: 9)
        fails(s, "name == %q", column: 9)
        fails(s, "name == %%", column: 9)
        fails(s, "name == $", column: 9)
        fails(s, "list[FIRST == 1", column: 12)
        fails(.appleBNF, "SUBQUERY(a, b, c == 1).@count > 0", column: 13)
        fails(.appleBNF, "SUBQUERY(a, $b).@count > 0", column: 15)
        fails(.appleBNF, "TERNARY(a > 1, 2) == 2", column: 17)
        fails(.appleBNF, "sum:(1, 2 == 3", column: 11)
        fails(.appleBNF, "a.@ > 1", column: 3)
        fails(.appleBNF, "a ~ 1", column: 3)
        // Arguments and names that do not fit: no column, the format itself parsed.
        fails(.appleSyntax, "name == %@ AND age == %@", ["x"], column: nil)
        fails(.appleSyntax, "%K == 1", [5], column: nil)
        fails(.appleSyntax, "%K == 1", [], column: nil)
        fails(.appleBNF, "FUNCTION(SELF, 'length') == 3", column: nil)
        fails(.appleBNF, "unknownFunction(1) == 1", column: nil)
        fails(.appleBNF, "sqrt:(1, 2) == 1", column: nil)
        fails(.appleBNF, "now(1) == 1", column: nil)
        fails(.foundation, "list.@foo == 1", column: nil)
        fails(.foundation, "name MATCHES '['", column: nil)
        fails(.foundation, "x BETWEEN {1}", column: nil)
        fails(.foundation, "CAST(1) == 1", column: nil)
    }
}

/// A plain Swift value, read through its stored properties.
package struct PredicateTestPoint {
    package var x: Int
    package var y: Int
}
