@testable import DataModel
@testable import DataModelReader
import Foundation
import Testing

/// `.xcmappingmodel` files: CoreDataPlus's real V2toV3 (Fixtures/MappingModels, see its README)
/// and damaged copies of it.
@Suite("Reader: mapping models (.xcmappingmodel)")
struct MappingModelReaderTests {
    static let path = ReaderTestPaths.fixture("MappingModels/V2toV3.xcmappingmodel")
    static var xml: String { (try? String(contentsOfFile: path + "/xcmapping.xml", encoding: .utf8)) ?? "" }
    static let previousOwners = #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "PersonToPerson", $source.owner)"#

    /// The archived expression of CarToCar's `previousOwners` (object z123), as bytes.
    static var previousOwnersArchive: [UInt8] {
        let text = xml.components(separatedBy: #"<object type="XDDEVRELATIONSHIPMAPPING" id="z123">"#)[1]
            .components(separatedBy: #"<attribute name="valueexpressiondata" type="binary">"#)[1]
            .components(separatedBy: "</attribute>")[0]
        return [UInt8](Data(base64Encoded: text, options: .ignoreUnknownCharacters) ?? Data())
    }

    /// The fixture with CarToCar's `previousOwners` expression replaced by `archive`.
    static func replacingPreviousOwners(with archive: [UInt8]) -> [UInt8] {
        let parts = xml.components(separatedBy: #"<object type="XDDEVRELATIONSHIPMAPPING" id="z123">"#)
        let rest = parts[1].components(separatedBy: "</attribute>")
        let replaced = #"<attribute name="valueexpressiondata" type="binary">"# + Data(archive).base64EncodedString() + "</attribute>"
            + rest.dropFirst().joined(separator: "</attribute>")
        let head = rest[0].components(separatedBy: #"<attribute name="valueexpressiondata""#)[0]
        return Array((parts[0] + #"<object type="XDDEVRELATIONSHIPMAPPING" id="z123">"# + head + replaced).utf8)
    }

    /// `bytes` with every occurrence of `pattern` replaced by `replacement` (of the same length).
    static func replacing(_ pattern: [UInt8], with replacement: [UInt8], in bytes: [UInt8]) -> [UInt8] {
        var result = bytes
        var position = 0
        while position + pattern.count <= result.count {
            if Array(result[position..<(position + pattern.count)]) == pattern {
                result.replaceSubrange(position..<(position + pattern.count), with: replacement)
                position += pattern.count
            } else {
                position += 1
            }
        }
        return result
    }

    static func readError(_ bytes: [UInt8]) -> MappingModelReadError? {
        do {
            _ = try MappingModelReader().read(xml: bytes, path: "V2toV3.xcmappingmodel/xcmapping.xml")
            return nil
        } catch {
            return error
        }
    }

    @Test("CoreDataPlus's V2toV3 reads: versions, entity mappings in Xcode's order, policies, expressions")
    func readsTheRealFile() throws {
        let document = try MappingModelReader().read(at: Self.path)
        #expect(document.sourceVersionName == "SampleModel2")
        #expect(document.destinationVersionName == "SampleModel3")
        #expect(document.entityMappings.map(\.name) == ["CarToCar", "LuxuryCarToLuxuryCar", "PersonToPerson", "SportCarToSportCar", "Maker"])
        #expect(document.entityMappings.map(\.migrationPolicyClassName) == [
            "REPLACE_AT_RUNTIME.V2to3MakerPolicy", "REPLACE_AT_RUNTIME.V2to3MakerPolicy", nil, "REPLACE_AT_RUNTIME.V2to3MakerPolicy", nil,
        ])
        let maker = try #require(document.entityMappings.last)
        #expect(maker.sourceEntityName == nil && maker.destinationEntityName == "Maker")
        let car = document.entityMappings[0]
        #expect(car.autogeneratesExpressions)
        #expect(car.attributeMappings.map(\.name) == ["markedForDeletionAsOf", "model", "numberPlate"])
        #expect(car.attributeMappings.allSatisfy { $0.valueExpression == nil })
        #expect(car.relationshipMappings.map(\.name) == ["createdBy", "owner", "previousOwners"])
        #expect(car.relationshipMappings[2].valueExpression?.description == Self.previousOwners)
        #expect(car.relationshipMappings[0].valueExpression == nil)
        let person = document.entityMappings[2]
        let previousCars = try #require(person.relationshipMappings.first { $0.name == "previousCars" }?.valueExpression)
        #expect(previousCars == .function(
            operand: .variable("manager"), selector: "destinationInstancesForSourceRelationshipNamed:sourceInstances:",
            arguments: [.constant(.string("cars")), .function(operand: .variable("source"), selector: "valueForKeyPath:", arguments: [.keyPath("cars")])]))
        #expect(previousCars.description == #"FUNCTION($manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:", "cars", $source.cars)"#)
        // The folder and the xcmapping.xml inside it read the same.
        #expect(try MappingModelReader().read(at: Self.path + "/xcmapping.xml") == document)
    }

    @Test("files that are not mapping models fail naming the file")
    func notAMappingModel() throws {
        #expect(Self.readError(Array("not xml".utf8))?.description.contains("V2toV3.xcmappingmodel/xcmapping.xml") == true)
        #expect(Self.readError(Array("<model/>".utf8))?.message.contains("expected a <database> root element") == true)
        #expect(Self.readError(Array("<database></database>".utf8))?.message.contains("found 0") == true)
        let missing = #expect(throws: MappingModelReadError.self) { try MappingModelReader().read(at: "/nonexistent/Missing.xcmappingmodel") }
        #expect(missing?.file == "/nonexistent/Missing.xcmappingmodel/xcmapping.xml")
    }

    @Test("broken references and nameless properties fail naming the mapping")
    func brokenReferences() throws {
        let dangling = Self.xml.replacingOccurrences(of: #"idrefs="z115 z119 z111 z103 z104""#, with: #"idrefs="z115 z119 z111 z103 z999""#)
        #expect(Self.readError(Array(dangling.utf8))?.message.contains("entity mapping z999, which is no XDDEVENTITYMAPPING") == true)
        let wrongType = Self.xml.replacingOccurrences(of: #"idrefs="z107 z110 z117""#, with: #"idrefs="z107 z110 z125""#)
        let error = Self.readError(Array(wrongType.utf8))
        #expect(error?.message.contains("entity mapping CarToCar lists z125 among its attributemappings") == true)
        #expect(error?.location?.line ?? 0 > 0)
        // What the reader does not know would change what migrates: refused, named.
        let filtered = Self.xml.replacingOccurrences(
            of: #"<attribute name="sourcename" type="string">Person</attribute>"#,
            with: #"<attribute name="sourcename" type="string">Person</attribute><attribute name="filterpredicate" type="string">age &gt; 18</attribute>"#)
        #expect(Self.readError(Array(filtered.utf8))?.message.contains(#"entity mapping PersonToPerson has filterpredicate "age > 18" (in XDDEVENTITYMAPPING z111), which this reader does not read"#) == true)
        // An archived expression it does not read is shown as Core Data prints it.
        let archived = Self.xml.replacingOccurrences(
            of: #"<attribute name="sourcename" type="string">Person</attribute>"#,
            with: #"<attribute name="sourcename" type="string">Person</attribute><attribute name="sourceexpressiondata" type="binary">"#
                + Data(Self.previousOwnersArchive).base64EncodedString() + "</attribute>")
        let archivedError = Self.readError(Array(archived.utf8))
        #expect(archivedError?.message.contains("entity mapping PersonToPerson has sourceexpressiondata \(Self.previousOwners) (in XDDEVENTITYMAPPING z111)") == true)
        #expect(archivedError?.file == "V2toV3.xcmappingmodel/xcmapping.xml")
        #expect(Self.readError(Array("bplist00 compiled".utf8))?.message.contains("a compiled mapping model (.cdm) is not read") == true)
        let noSource = Self.xml.replacingOccurrences(of: #"<attribute name="destinationname" type="string">Maker</attribute>"#, with: "")
        #expect(Self.readError(Array(noSource.utf8))?.message.contains("names neither a source nor a destination entity") == true)
    }

    @Test("damaged value expressions fail naming the entity mapping and the property")
    func damagedExpressions() throws {
        let archive = Self.previousOwnersArchive
        #expect(archive.starts(with: Array("bplist00".utf8)))
        func message(_ bytes: [UInt8]) -> String { Self.readError(Self.replacingPreviousOwners(with: bytes))?.message ?? "" }
        // The replacement itself leaves a readable file.
        #expect(Self.readError(Self.replacingPreviousOwners(with: archive)) == nil)
        #expect(message(Array(archive.prefix(100))).contains("entity mapping CarToCar, property previousOwners: cannot read the value expression"))
        #expect(message(Array("bplist00 but nothing else, not even a trailer!".utf8)).contains("property previousOwners"))
        // An expression class mapping models read here do not hold (same length, so the list stays valid).
        let subquery = Self.replacing(Array("NSVariableExpression".utf8), with: Array("NSSubqueryExpression".utf8), in: archive)
        #expect(subquery != archive)
        #expect(message(subquery).contains("an expression of class NSSubqueryExpression"))
        // The function's operand made to point at the function itself: a cycle, refused.
        var cycle = archive
        let operand: [UInt8] = [0x80, 0x03, 0x80, 0x02, 0x10, 0x04]
        let start = try #require((0..<(cycle.count - operand.count)).first { Array(cycle[$0..<($0 + operand.count)]) == operand })
        cycle[start + 1] = 0x01
        #expect(message(cycle).contains("nests more than"))
        let notBase64 = Self.xml.replacingOccurrences(of: "YnBsaXN0MDDUAQIDBAUGU1RY", with: "%%%%")
        #expect(Self.readError(Array(notBase64.utf8))?.message.contains("entity mapping PersonToPerson, property previousCars") == true)
    }

    @Test("every truncation and every one-byte change of an archived expression reads or fails, never traps")
    func damagedArchivesNeverTrap() throws {
        let archive = Self.previousOwnersArchive
        var failures = 0
        for length in 0..<archive.count {
            if (try? MappingExpressionUnarchiver.expression(fromArchive: Array(archive.prefix(length)))) == nil { failures += 1 }
        }
        #expect(failures == archive.count)
        for position in archive.indices {
            for value: UInt8 in [0x00, 0x0F, 0x5F, 0x80, 0xAF, 0xDF, 0xFF] {
                var damaged = archive
                damaged[position] = value
                _ = try? MappingExpressionUnarchiver.expression(fromArchive: damaged)
            }
        }
        #expect(try MappingExpressionUnarchiver.expression(fromArchive: archive).description == Self.previousOwners)
    }
}
