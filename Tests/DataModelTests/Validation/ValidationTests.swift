import Testing
@testable import DataModel
@testable import DataModelReader

/// Each check of `ModelValidator`, on small models written inline. Line numbers count from the
/// `<?xml` line of `modelXML`, so the first entity is on line 3.
@Suite("Validation")
struct ValidationTests {
    private func diagnostics(_ body: String) -> [Diagnostic] { checkModel(modelXML(body)) }

    private let twoWayRelationship = """
        <entity name="A" syncable="YES">
            <relationship name="bs" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="B" inverseName="a" inverseEntity="B"/>
        </entity>
        <entity name="B" syncable="YES">
            <relationship name="a" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="A" inverseName="bs" inverseEntity="A"/>
        </entity>
        """

    @Test func consistentModelHasNoDiagnostics() {
        #expect(diagnostics(twoWayRelationship).isEmpty)
    }

    @Test func requiredAttributeWithoutTypeIsAnErrorAtItsLine() {
        let found = diagnostics("""
            <entity name="Product" syncable="YES">
                <attribute name="brand" attributeType="String"/>
                <attribute name="name"/>
                <attribute name="note" optional="YES"/>
                <attribute name="scratch" transient="YES"/>
            </entity>
            """)
        #expect(found.map(\.description) == [
            "Test.xcdatamodel/contents:5:5: error: attribute 'Product.name' has no type and is not transient; a required attribute needs a type",
            "Test.xcdatamodel/contents:6:5: warning: attribute 'Product.note' has no type and is not transient; it can only ever be nil",
        ])
    }

    @Test func relationshipWithoutDestination() {
        let found = diagnostics("""
            <entity name="Card" syncable="YES">
                <relationship name="user" maxCount="1" deletionRule="Nullify"/>
                <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify"/>
                <relationship name="products" toMany="YES" deletionRule="Nullify"/>
                <relationship name="parts" toMany="YES" minCount="2" deletionRule="Nullify"/>
            </entity>
            """)
        #expect(found.errors.map(\.description) == [
            "Test.xcdatamodel/contents:4:5: error: relationship 'Card.user' has no destination entity, but requires an object",
            "Test.xcdatamodel/contents:7:5: error: relationship 'Card.parts' has no destination entity, but requires an object",
        ])
        #expect(found.warnings.messages == [
            "relationship 'Card.owner' has no destination entity; it can only ever be empty",
            "relationship 'Card.products' has no destination entity; it can only ever be empty",
        ])
    }

    @Test func destinationNotInTheModelIsAWarning() {
        let found = diagnostics("""
            <entity name="Animal" syncable="YES">
                <relationship name="pedigree" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Pedigree" inverseName="animal" inverseEntity="Pedigree"/>
            </entity>
            """)
        #expect(found.messages == ["destination entity 'Pedigree' of relationship 'Animal.pedigree' is not in the model"])
        #expect(found.warnings.count == 1)
    }

    @Test func missingInverseIsAWarning() {
        let found = diagnostics("""
            <entity name="A" syncable="YES">
                <relationship name="b" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="B"/>
            </entity>
            <entity name="B" syncable="YES"/>
            """)
        #expect(found.map(\.description) == ["Test.xcdatamodel/contents:4:5: warning: relationship 'A.b' has no inverse"])
    }

    @Test func inverseThatIsNotThere() {
        let found = diagnostics("""
            <entity name="A" syncable="YES">
                <relationship name="b" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="B" inverseName="missing" inverseEntity="B"/>
                <relationship name="c" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="B" inverseName="title" inverseEntity="B"/>
            </entity>
            <entity name="B" syncable="YES">
                <attribute name="title" optional="YES" attributeType="String"/>
            </entity>
            """)
        #expect(found.errors.messages == [
            "the inverse 'missing' of relationship 'A.b' is not a relationship of 'B'",
            "the inverse 'B.title' of relationship 'A.c' is an attribute, not a relationship",
        ])
    }

    @Test func inverseThatPointsElsewhere() {
        let found = diagnostics("""
            <entity name="A" syncable="YES">
                <relationship name="b" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="B" inverseName="toC" inverseEntity="B"/>
                <relationship name="other" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="B" inverseName="a" inverseEntity="B"/>
                <relationship name="wrongEntity" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="B" inverseName="a" inverseEntity="C"/>
            </entity>
            <entity name="B" syncable="YES">
                <relationship name="a" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="A" inverseName="b" inverseEntity="A"/>
                <relationship name="toC" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="C" inverseName="b" inverseEntity="C"/>
            </entity>
            <entity name="C" syncable="YES">
                <relationship name="b" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="B" inverseName="toC" inverseEntity="B"/>
            </entity>
            """)
        #expect(found.errors.messages == [
            "the inverse 'B.toC' of relationship 'A.b' leads to 'C', not back to 'A'",
            "the inverse of relationship 'A.wrongEntity' is declared on 'C', but its destination is 'B'",
        ])
        // An inverse mismatch is a warning: Xcode builds it (see Fixtures/XcodeWarnings).
        #expect(found.warnings.map(\.description) == [
            "Test.xcdatamodel/contents:5:5: warning: relationship 'A.other' names 'B.a' as its inverse, but that relationship's inverse is 'b'",
            "Test.xcdatamodel/contents:9:5: warning: relationship 'B.a' names 'A.b' as its inverse, but that relationship's inverse is 'toC'",
        ])
    }

    /// `Owner.pets` leads to `Dog`, whose inverse `owner` is inherited from `Animal`; seen from
    /// `Animal`, the inverse leads to a sub-entity. Core Data accepts both directions.
    @Test func inverseDeclaredOnAParentOfTheDestinationIsFine() {
        let found = diagnostics("""
            <entity name="Owner" syncable="YES">
                <relationship name="pets" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Dog" inverseName="owner" inverseEntity="Dog"/>
            </entity>
            <entity name="Animal" isAbstract="YES" syncable="YES">
                <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner" inverseName="pets" inverseEntity="Owner"/>
            </entity>
            <entity name="Dog" parentEntity="Animal" syncable="YES"/>
            """)
        #expect(found.isEmpty)
    }

    @Test func missingParentAndInheritanceCycles() {
        let found = diagnostics("""
            <entity name="Orphan" parentEntity="Nobody" syncable="YES"/>
            <entity name="A" parentEntity="B" syncable="YES"/>
            <entity name="B" parentEntity="A" syncable="YES"/>
            <entity name="C" parentEntity="A" syncable="YES"/>
            <entity name="Self" parentEntity="Self" syncable="YES"/>
            """)
        #expect(found.errors.messages == [
            "parent entity 'Nobody' of entity 'Orphan' is not in the model",
            "entity 'A' inherits from itself: A → B → A",
            "entity 'Self' inherits from itself: Self → Self",
        ])
    }

    @Test func duplicateNames() {
        let found = diagnostics("""
            <entity name="Thing" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <relationship name="name" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Thing"/>
            </entity>
            <entity name="Thing" syncable="YES"/>
            <fetchRequest name="All" entity="Thing"/>
            <fetchRequest name="All" entity="Thing"/>
            <configuration name="Cloud"/>
            <configuration name="Cloud"/>
            """)
        #expect(found.errors.messages == [
            "duplicate property 'name' in entity 'Thing' (first declared at line 4)",
            "duplicate entity 'Thing' (first declared at line 3)",
            "duplicate fetch request 'All' (first declared at line 8)",
            "duplicate configuration 'Cloud' (first declared at line 10)",
        ])
    }

    @Test func propertyThatRedeclaresAnInheritedOne() {
        let found = diagnostics("""
            <entity name="Base" syncable="YES">
                <attribute name="id" optional="YES" attributeType="String"/>
            </entity>
            <entity name="Middle" parentEntity="Base" syncable="YES"/>
            <entity name="Leaf" parentEntity="Middle" syncable="YES">
                <attribute name="id" optional="YES" attributeType="UUID"/>
            </entity>
            """)
        #expect(found.map(\.description) == [
            "Test.xcdatamodel/contents:8:5: error: attribute 'Leaf.id' redeclares the property 'id' inherited from 'Base'"
        ])
    }

    @Test func composites() {
        let found = diagnostics("""
            <entity name="Box" syncable="YES">
                <attribute name="size" optional="YES" attributeType="Composite" composite="Size"/>
                <attribute name="shape" optional="YES" attributeType="Composite" composite="Shape"/>
                <attribute name="bare" optional="YES" attributeType="Composite"/>
                <attribute name="odd" optional="YES" attributeType="String" composite="Size"/>
            </entity>
            <composite name="Size">
                <attribute name="width" optional="YES" attributeType="Double" usesScalarValueType="YES"/>
            </composite>
            <composite name="Loop">
                <attribute name="inner" optional="YES" attributeType="Composite" composite="Ring"/>
            </composite>
            <composite name="Ring">
                <attribute name="outer" optional="YES" attributeType="Composite" composite="Loop"/>
            </composite>
            """)
        #expect(found.errors.messages == [
            "attribute 'Box.shape' uses composite 'Shape', which is not in the model",
            "composite attribute 'Box.bare' names no composite",
            "composite 'Loop' contains itself: Loop → Ring → Loop",
        ])
        #expect(found.warnings.messages == [
            "attribute 'Box.odd' names composite 'Size' but its type is String; the composite is ignored"
        ])
    }

    @Test func requestsConfigurationsConstraintsAndIndexesNameWhatExists() {
        let found = diagnostics("""
            <entity name="Item" syncable="YES">
                <attribute name="code" optional="YES" attributeType="String"/>
                <fetchedProperty name="similar" optional="YES">
                    <fetchRequest name="fetchedPropertyFetchRequest" entity="Ghost"/>
                </fetchedProperty>
                <fetchIndex name="byNothing">
                    <fetchIndexElement property="nothing" type="Binary" order="ascending"/>
                </fetchIndex>
                <compoundIndexes>
                    <compoundIndex>
                        <index value="code"/>
                        <index value="missing"/>
                    </compoundIndex>
                </compoundIndexes>
                <uniquenessConstraints>
                    <uniquenessConstraint>
                        <constraint value="code"/>
                        <constraint value="absent"/>
                    </uniquenessConstraint>
                </uniquenessConstraints>
            </entity>
            <fetchRequest name="Lost" entity="Nowhere"/>
            <configuration name="Cloud">
                <memberEntity name="Item"/>
                <memberEntity name="Item"/>
                <memberEntity name="Phantom"/>
            </configuration>
            """)
        #expect(found.errors.messages == [
            "a uniqueness constraint of entity 'Item' names 'absent', which is not a stored property of the entity",
            "a compound index of entity 'Item' names 'missing', which is not a stored property of the entity",
            "the fetch request of fetched property 'Item.similar' fetches entity 'Ghost', which is not in the model",
            "fetch index 'byNothing' of entity 'Item' names 'nothing', which is not a stored property of the entity",
            "fetch request 'Lost' fetches entity 'Nowhere', which is not in the model",
            "configuration 'Cloud' lists entity 'Phantom', which is not in the model",
        ])
        #expect(found.warnings.messages == ["configuration 'Cloud' lists entity 'Item' more than once"])
    }

    @Test func constraintsMayNameInheritedProperties() {
        let found = diagnostics("""
            <entity name="Base" isAbstract="YES" syncable="YES">
                <attribute name="id" attributeType="UUID" usesScalarValueType="NO"/>
            </entity>
            <entity name="Leaf" parentEntity="Base" syncable="YES">
                <uniquenessConstraints>
                    <uniquenessConstraint>
                        <constraint value="id"/>
                    </uniquenessConstraint>
                </uniquenessConstraints>
            </entity>
            """)
        #expect(found.isEmpty)
    }

    @Test func suspiciousRelationshipCounts() {
        let found = diagnostics("""
            <entity name="A" syncable="YES">
                <relationship name="one" optional="YES" maxCount="1" deletionRule="Nullify" ordered="YES" destinationEntity="A" inverseName="one" inverseEntity="A"/>
                <relationship name="many" optional="YES" toMany="YES" minCount="5" maxCount="2" deletionRule="Nullify" destinationEntity="A" inverseName="many" inverseEntity="A"/>
            </entity>
            """)
        #expect(found.warnings.messages == [
            "relationship 'A.one' is ordered but to-one; ordered is ignored",
            "relationship 'A.many' has minCount 5 above maxCount 2",
        ])
        #expect(found.errors.isEmpty)
    }
}
