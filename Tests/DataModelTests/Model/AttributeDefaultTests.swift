import DataModelReader
import Foundation
import Testing

/// `AttributeDefault`: the one reading of a model's default, shared by the generator and the runtime.
@Suite struct AttributeDefaultTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var type: AttributeType
        var text: String
        var expected: AttributeDefault?
        var testDescription: String { "\(type.rawValue) \(text.debugDescription)" }
    }

    static let cases: [Case] = [
        Case(type: .integer16, text: "7", expected: .integer(7)),
        Case(type: .integer16, text: "1.0", expected: .integer(1)),
        Case(type: .integer16, text: " 7\n", expected: .integer(7)),
        Case(type: .integer16, text: "40000", expected: nil),
        Case(type: .integer16, text: "-32768", expected: .integer(-32768)),
        Case(type: .integer32, text: "YES", expected: .integer(1)),
        Case(type: .integer32, text: "no", expected: .integer(0)),
        Case(type: .integer32, text: "3000000000", expected: nil),
        Case(type: .integer64, text: "1e3", expected: .integer(1000)),
        Case(type: .integer64, text: "2.5", expected: nil),
        Case(type: .integer64, text: "0x10", expected: nil),
        Case(type: .integer64, text: "", expected: nil),
        Case(type: .double, text: "2.5", expected: .double(2.5)),
        Case(type: .double, text: "YES", expected: .double(1)),
        Case(type: .double, text: "inf", expected: nil),
        Case(type: .double, text: "nan", expected: nil),
        Case(type: .double, text: "1e400", expected: nil),
        Case(type: .float, text: "1e39", expected: nil),
        Case(type: .float, text: "0.5", expected: .double(0.5)),
        Case(type: .decimal, text: "12.50", expected: .decimal(Decimal(string: "12.5")!)),
        Case(type: .decimal, text: "NO", expected: .decimal(0)),
        Case(type: .decimal, text: "12abc", expected: nil),
        Case(type: .boolean, text: "0", expected: .boolean(false)),
        Case(type: .boolean, text: "1", expected: .boolean(true)),
        Case(type: .boolean, text: " YES ", expected: .boolean(true)),
        Case(type: .boolean, text: "2", expected: .boolean(true)),
        Case(type: .boolean, text: "maybe", expected: nil),
        Case(type: .string, text: " Untitled ", expected: .string(" Untitled ")),
        Case(type: .date, text: "86400", expected: .date(86400)),
        Case(type: .date, text: "today", expected: nil),
        Case(type: .uuid, text: "junk", expected: nil),
        Case(type: .uuid, text: " E621E1F8-C36C-495A-93FC-0C247A3E6E5F ",
             expected: .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!)),
        Case(type: .uri, text: "https://example.com", expected: .uri(URL(string: "https://example.com")!)),
        Case(type: .uri, text: "  ", expected: nil),
        Case(type: .binary, text: "AAAA", expected: nil),
        Case(type: .transformable, text: "1", expected: nil),
    ]

    @Test(arguments: cases)
    func parses(_ testCase: Case) {
        #expect(AttributeDefault(parsing: testCase.text, as: testCase.type) == testCase.expected)
        let attribute = Attribute(name: "a", type: testCase.type, defaultValueString: testCase.text)
        #expect(attribute.parsedDefault == testCase.expected)
    }

    @Test func aDateDefaultIsItsTimeIntervalBeforeItsText() {
        let both = Attribute(name: "d", type: .date, defaultValueString: "5", defaultDateTimeInterval: 86_400)
        #expect(both.parsedDefault == .date(86_400))
        #expect(Attribute(name: "d", type: .date).parsedDefault == nil)
        // The interval belongs to Date attributes only.
        #expect(Attribute(name: "n", type: .double, defaultDateTimeInterval: 5).parsedDefault == nil)
    }
}
