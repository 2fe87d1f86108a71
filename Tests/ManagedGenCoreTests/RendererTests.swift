import Testing
@testable import ManagedGenCore

@Suite struct RendererTests {
    let renderer = TextRenderer()

    @Test func rendersHeaderImportsAndTrailingNewline() {
        let file = SwiftFile(
            name: "A.swift", headerComments: ["Generated."], imports: ["Foundation"],
            declarations: [.type(TypeDeclaration(.enum, access: .public, name: "A"))])
        #expect(renderer.render(file) == "// Generated.\n\nimport Foundation\n\npublic enum A {}\n")
    }

    /// One-line members stay together (as in extensions); a member of several lines gets a blank
    /// line before it.
    @Test func oneLineBodiesStayOnTheLineAndOthersUseFourSpaceIndentation() {
        let type = TypeDeclaration(.class, access: .public, isFinal: true, name: "Dog", inheritance: ["ManagedObject"], members: [
            .variable(VariableDeclaration(access: .public, modifiers: [.override, .class], name: "entityName", type: "String", getter: ["\"Dog\""])),
            .variable(VariableDeclaration(
                access: .public, name: "name", type: "String?",
                getter: ["attributeValue(at: 0)"], setter: ["setAttributeValue(newValue, at: 0)"]),
                documentation: ["The name."]),
            .function(FunctionDeclaration(access: .public, name: "bark", parameters: [Parameter(label: "_", name: "times", type: "Int")], body: ["print(times)"])),
            .function(FunctionDeclaration(access: .public, name: "sit", body: ["print(1)", "print(2)"])),
        ])
        let text = renderer.render(SwiftFile(name: "Dog.swift", declarations: [.type(type)]))
        #expect(text == """
            public final class Dog: ManagedObject {
                public override class var entityName: String { "Dog" }
                /// The name.
                public var name: String? { get { attributeValue(at: 0) } set { setAttributeValue(newValue, at: 0) } }
                public func bark(_ times: Int) { print(times) }

                public func sit() {
                    print(1)
                    print(2)
                }
            }

            """)
    }

    @Test func enumMembersOnOneLineEachStayTogether() {
        let keys = TypeDeclaration(.enum, access: .public, name: "Keys", members: [
            .variable(VariableDeclaration(access: .public, modifiers: [.static], isLet: true, name: "a", type: nil, initializer: "\"a\"")),
            .variable(VariableDeclaration(access: .public, modifiers: [.static], isLet: true, name: "b", type: nil, initializer: "\"b\"")),
        ])
        #expect(renderer.render(SwiftFile(name: "K.swift", declarations: [.type(keys)])) == """
            public enum Keys {
                public static let a = "a"
                public static let b = "b"
            }

            """)
    }

    @Test func longSignaturesPutOneParameterPerLine() {
        let function = FunctionDeclaration(
            access: .public, modifiers: [.static], name: "fetch",
            parameters: [
                Parameter(label: "_", name: "predicate", type: "ObjectPredicate?", defaultValue: "nil"),
                Parameter(label: "sortedBy", name: "sortDescriptors", type: "[ObjectSortDescriptor]", defaultValue: "[]"),
                Parameter(label: "in", name: "context", type: "ManagedObjectContext"),
            ], isThrowing: true, returnType: "[Airport]", body: ["return []"])
        let text = renderer.render(SwiftFile(name: "F.swift", declarations: [
            .extension(ExtensionDeclaration(extendedType: "Airport", members: [.function(function)])),
        ]))
        #expect(text == """
            extension Airport {
                public static func fetch(
                    _ predicate: ObjectPredicate? = nil,
                    sortedBy sortDescriptors: [ObjectSortDescriptor] = [],
                    in context: ManagedObjectContext
                ) throws -> [Airport] {
                    return []
                }
            }

            """)
    }

    @Test func multilineLiteralsAreIndentedWithTheirDeclaration() {
        let literal = SwiftLiteral.call("Model", [LiteralArgument(label: "entities", value: .array([
            .call("Entity", [LiteralArgument(label: "name", value: .string(String(repeating: "A", count: 120)))]),
        ]))])
        let text = renderer.render(SwiftFile(name: "M.swift", declarations: [
            .type(TypeDeclaration(.enum, access: nil, name: "M", members: [
                .variable(VariableDeclaration(access: nil, modifiers: [.static], isLet: true, name: "model", type: nil, initializer: literal.rendered())),
            ])),
        ]))
        #expect(text == """
            enum M {
                static let model = Model(entities: [
                    Entity(
                        name: "\(String(repeating: "A", count: 120))"
                    ),
                ])
            }

            """)
    }

    @Test func stringLiteralsEscapeWhatSwiftRequires() {
        #expect(SwiftNames.stringLiteral("a \"b\" \\ \n\t") == #""a \"b\" \\ \n\t""#)
    }
}
