import Testing
@testable import DataModel
@testable import DataModelReader

/// What the reader tolerates with a warning, and what it refuses with an error, always naming
/// file, line and column.
@Suite("Reader diagnostics")
struct ReaderDiagnosticsTests {
    @Test func unknownAttributesAndElementsAreWarningsWithTheirLine() throws {
        let (model, diagnostics) = readModel(modelXML("""
                <entity name="Shape" color="red" syncable="YES">
                    <attribute name="sides" attributeType="Integer 16" usesScalarValueType="YES" unit="count"/>
                    <compositeAttribute name="center"/>
                </entity>
                <diagram/>
            """))
        #expect(diagnostics.map(\.description) == [
            "Test.xcdatamodel/contents:3:5: warning: unknown attribute 'color' on <entity> ignored",
            "Test.xcdatamodel/contents:4:9: warning: unknown attribute 'unit' on <attribute> ignored",
            "Test.xcdatamodel/contents:5:9: warning: unknown element <compositeAttribute> in <entity> ignored",
            "Test.xcdatamodel/contents:7:5: warning: unknown element <diagram> in <model> ignored",
        ])
        #expect(model?.entities.first?.attributes.map(\.name) == ["sides"])
    }

    @Test func valuesThatMakeNoSense() {
        let (model, diagnostics) = readModel(modelXML("""
                <entity name="E" isAbstract="maybe" syncable="YES" codeGenerationType="magic">
                    <attribute name="a" attributeType="Integer 128"/>
                    <attribute name="d" optional="YES" attributeType="Date" defaultDateTimeInterval="soon"/>
                    <relationship name="r" optional="YES" maxCount="one" deletionRule="Explode" destinationEntity="E" inverseName="r" inverseEntity="E"/>
                </entity>
                <fetchRequest name="F" entity="E" resultType="7"/>
            """))
        #expect(diagnostics.errors.messages == [
            "unknown attributeType 'Integer 128'",
            "unknown deletionRule 'Explode'; expected Nullify, Cascade, Deny or No Action",
        ])
        #expect(diagnostics.warnings.messages == [
            "'isAbstract' should be YES or NO, not 'maybe'; reading it as NO",
            "unknown codeGenerationType 'magic'; expected 'class' or 'category'",
            "'defaultDateTimeInterval' should be a number, not 'soon'; ignored",
            "'maxCount' should be an integer, not 'one'; ignored",
            "unknown resultType '7'; reading it as managed objects",
        ])
        #expect(model?.entities.first?.codeGeneration == .manual)
    }

    @Test func booleanSpellingsOfHandWrittenFiles() throws {
        let (model, diagnostics) = readModel("""
            <model usedWithCloudKit="false" usedWithSwiftData="true">
                <entity name="E" isAbstract="NO" syncable="1"/>
            </model>
            """)
        #expect(diagnostics.isEmpty)
        let read = try #require(model)
        #expect(!read.metadata.usedWithCloudKit)
        #expect(read.metadata.usedWithSwiftData)
        #expect(read.entities.first?.isAbstract == false)
        #expect(read.entities.first?.syncable == true)
    }

    @Test func elementsWithoutRequiredNamesAreErrors() {
        let (_, diagnostics) = readModel(modelXML("""
                <entity syncable="YES"/>
                <entity name="E" syncable="YES">
                    <attribute attributeType="String"/>
                    <fetchedProperty name="fp" optional="YES"/>
                    <uniquenessConstraints>
                        <uniquenessConstraint>
                            <constraint/>
                        </uniquenessConstraint>
                    </uniquenessConstraints>
                </entity>
                <fetchRequest name="NoEntity"/>
            """))
        #expect(diagnostics.map(\.description) == [
            "Test.xcdatamodel/contents:3:5: error: <entity> has no name",
            "Test.xcdatamodel/contents:5:9: error: <attribute> has no name",
            "Test.xcdatamodel/contents:6:9: error: fetched property 'fp' has no <fetchRequest>",
            "Test.xcdatamodel/contents:8:13: warning: empty <uniquenessConstraint> ignored",
            "Test.xcdatamodel/contents:9:17: error: <constraint> has no 'value'",
            "Test.xcdatamodel/contents:13:5: error: <fetchRequest> 'NoEntity' has no 'entity'",
        ])
    }

    @Test func wrongRootElement() {
        let (model, diagnostics) = readModel("<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict/></plist>")
        #expect(model == nil)
        #expect(diagnostics.map(\.description) == [
            "Test.xcdatamodel/contents:2:1: error: expected a <model> root element, found <plist>; this is not a Core Data model file"
        ])
    }

    @Test func whatXMLAllowsButXcodeNeverWrites() throws {
        // A byte order mark, CRLF line ends, comments, a processing instruction, CDATA,
        // non-ASCII names, attributes on several lines, several elements on one line.
        let xml = "\u{FEFF}<?xml version=\"1.0\" encoding=\"UTF-8\"?>\r\n<!-- written by hand -->\r\n<model>\r\n"
            + "    <?editor layout=\"auto\"?>\r\n"
            + "    <entity name=\"Café\"\r\n            syncable=\"YES\">\r\n"
            + "        <!-- the name -->\r\n"
            + "        <attribute name=\"prénom\" optional=\"YES\" attributeType=\"String\"/><attribute name=\"x\" optional=\"YES\" attributeType=\"Double\"/>\r\n"
            + "        <![CDATA[ ignored text ]]>\r\n"
            + "    </entity>\r\n</model>"
        let (model, diagnostics) = readModel(xml)
        #expect(diagnostics.isEmpty)
        let entity = try #require(model?.entities.first)
        #expect(entity.name == "Café")
        #expect(entity.location?.line == 5)
        #expect(entity.location?.column == 5)
        #expect(entity.attributes.map(\.name) == ["prénom", "x"])
        #expect(entity.attributes.map { $0.location?.line } == [8, 8])
        // Columns count characters, not bytes: "é" is one column.
        #expect(entity.attributes.map { $0.location?.column } == [9, 73])
    }
}
