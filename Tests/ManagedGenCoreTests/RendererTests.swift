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
                .variable(VariableDeclaration(access: nil, modifiers: [.static], isLet: true, name: "model", type: nil, initializer: literal.rendered(indentLevel: 1))),
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

    // MARK: Lines longer than the limit

    private func wrapped(_ line: String, indentWidth: Int = 0, limit: Int = 40) -> String {
        LineWrapping(maximumLength: limit).lines(line, indentWidth: indentWidth).joined(separator: "\n")
    }

    @Test func aLongCallPutsOneArgumentPerLine() {
        #expect(wrapped("try Dog.findOrInsert(Keys.name, name, at: 0, in: context)") == """
            try Dog.findOrInsert(
                Keys.name,
                name,
                at: 0,
                in: context
            )
            """)
    }

    /// The limit counts the indentation the line is written at.
    @Test func theIndentationCountsTowardsTheLimit() {
        let line = "self.removeRelatedObject(value, at: 1)"
        #expect(wrapped(line, indentWidth: 0) == line)
        #expect(wrapped(line, indentWidth: 8) == "self.removeRelatedObject(\n    value,\n    at: 1\n)")
    }

    @Test func aSoleBracketedArgumentHugsItsCall() {
        #expect(wrapped(#"self.propertyNames([\.name: "name", \.walks: "walks"])"#) == #"""
            self.propertyNames([
                \.name: "name",
                \.walks: "walks"
            ])
            """#)
    }

    /// A closure's body goes between its braces; the opening stays with the declaration.
    @Test func aClosureBodyGetsALineOfItsOwn() {
        let line = #"@used private let register: @convention(c) () -> Void = { Models.register("DogWalk") { M.model } }"#
        #expect(wrapped(line, limit: 90) == #"""
            @used private let register: @convention(c) () -> Void = {
                Models.register("DogWalk") { M.model }
            }
            """#)
    }

    /// Commas and brackets inside string literals (interpolations included) are text, not code.
    @Test func stringLiteralsAreNotBroken() {
        let line = ##"Template(name: "a, (b", predicate: "x IN {1, 2}", note: "\(f(1, "]"))", raw: #"c, "d)"#)"##
        #expect(wrapped(line) == #"""
            Template(
                name: "a, (b",
                predicate: "x IN {1, 2}",
                note: "\(f(1, "]"))",
                raw: #"c, "d)"#
            )
            """#)
    }

    @Test func whatStillDoesNotFitBreaksAgainFurtherIn() {
        #expect(wrapped("Attribute(name: \"count\", userInfo: [Entry(key: \"a\", value: \"b\")])", limit: 30) == """
            Attribute(
                name: "count",
                userInfo: [
                    Entry(
                        key: "a",
                        value: "b"
                    )
                ]
            )
            """)
    }

    /// A continuation line (`    .withSubstitutionVariables(…)` under `request.predicate = …`) keeps its own indentation.
    @Test func aContinuationLineKeepsItsIndentation() {
        #expect(wrapped(#"    .withSubstitutionVariables(["NAME": name, "RANKS": ranks])"#) == #"""
                .withSubstitutionVariables([
                    "NAME": name,
                    "RANKS": ranks
                ])
            """#)
    }

    /// With no bracket pair to break, a value goes on the next line after its `=` or its key.
    @Test func aValueGoesOnTheNextLineAfterItsEqualsSignOrKey() {
        #expect(wrapped(#"public static let preferredLandscapeSkin = "preferredLandscapeSkin""#, limit: 50) == #"""
            public static let preferredLandscapeSkin =
                "preferredLandscapeSkin"
            """#)
        #expect(wrapped(#""SingleEntityRelatedToMappedEntity": SingleEntityRelatedToMappedEntity.self,"#, limit: 50) == #"""
            "SingleEntityRelatedToMappedEntity":
                SingleEntityRelatedToMappedEntity.self,
            """#)
    }

    /// Breaking `@_optimize(none) private static func …` at `(none)` would help nothing: the renderer
    /// puts the attribute on a line of its own instead.
    @Test func attributesTooLongForTheSignatureLineGetALineOfTheirOwn() {
        let function = FunctionDeclaration(
            attributes: ["@_optimize(none)"], access: .private, modifiers: [.static], name: "singleEntityRelatedToMappedEntity",
            returnType: "Entity", body: ["Entity(name: \"A\")"])
        let text = TextRenderer(maximumLineLength: 80).render(SwiftFile(name: "M.swift", declarations: [
            .type(TypeDeclaration(.enum, access: nil, name: "M", members: [.function(function)])),
        ]))
        #expect(text == """
            enum M {
                @_optimize(none)
                private static func singleEntityRelatedToMappedEntity() -> Entity {
                    Entity(name: "A")
                }
            }

            """)
    }

    @Test func aLineWithNothingToBreakStaysAsItIs() {
        let line = "let " + String(repeating: "a", count: 60)
        #expect(wrapped(line) == line)
    }

    @Test func longCommentsBreakAtSpacesWithTheirMarker() {
        #expect(wrapped("/// The model as Swift values: an app needs no model file at run time.", indentWidth: 4) == """
            /// The model as Swift values: an
            /// app needs no model file at run
            /// time.
            """)
        #expect(wrapped("// Generated for this version of the runtime's contract.", limit: 30) == """
            // Generated for this version
            // of the runtime's contract.
            """)
    }

    /// A member too long for one line gets its accessors, or its body, on lines of their own.
    @Test func membersTooLongForOneLineSpreadTheirBodies() {
        let renderer = TextRenderer(maximumLineLength: 60)
        let members: [Declaration] = [
            .variable(VariableDeclaration(
                access: .public, name: "walks", type: "Set<Walk>",
                getter: ["self.toManyRelationship(at: 1)"], setter: ["self.setToManyRelationship(newValue, at: 1)"])),
            .function(FunctionDeclaration(
                access: .public, name: "addToWalks", parameters: [Parameter(label: "_", name: "value", type: "Walk")],
                body: ["self.addRelatedObject(value, at: 1)"])),
            .variable(VariableDeclaration(access: .public, name: "name", type: "String?", getter: ["nil"])),
        ]
        let text = renderer.render(SwiftFile(name: "Dog.swift", declarations: [
            .extension(ExtensionDeclaration(extendedType: "Dog", members: members)),
        ]))
        #expect(text == """
            extension Dog {
                public var walks: Set<Walk> {
                    get { self.toManyRelationship(at: 1) }
                    set { self.setToManyRelationship(newValue, at: 1) }
                }

                public func addToWalks(_ value: Walk) {
                    self.addRelatedObject(value, at: 1)
                }

                public var name: String? { nil }
            }

            """)
    }

    @Test func stringLiteralsEscapeWhatSwiftRequires() {
        #expect(SwiftNames.stringLiteral("a \"b\" \\ \n\t") == #""a \"b\" \\ \n\t""#)
    }
}
