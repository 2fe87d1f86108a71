import Foundation
import Testing
@testable import DataModel
@testable import DataModelReader

/// `Model.jsonRepresentation(includingLocations:)`: the JSON `managedgen dump` prints.
@Suite("Model JSON (managedgen dump)")
struct ModelJSONTests {
    static let dogWalkPath = ReaderTestPaths.fixture("Seeds/DogWalk.xcdatamodeld")

    private func loadDogWalk() throws -> ModelBundle {
        try ModelLoader().load(at: Self.dogWalkPath).requireBundle()
    }

    @Test("two reads of the same file give byte-identical JSON")
    func byteIdentical() throws {
        let first = try loadDogWalk().current.model.jsonRepresentation()
        let second = try loadDogWalk().current.model.jsonRepresentation()
        #expect(first == second)
        #expect(try loadDogWalk().jsonRepresentation() == loadDogWalk().jsonRepresentation())
    }

    @Test("locations are left out by default and written on request")
    func locations() throws {
        let model = try loadDogWalk().current.model
        let plain = try #require(String(data: model.jsonRepresentation(), encoding: .utf8))
        #expect(!plain.contains("\"location\""))
        #expect(!plain.contains("DogWalk.xcdatamodel/contents"))
        let located = try #require(String(data: model.jsonRepresentation(includingLocations: true), encoding: .utf8))
        #expect(located.contains("\"location\""))
        #expect(located.contains("DogWalk.xcdatamodeld/DogWalk.xcdatamodel/contents"))
    }

    @Test("the JSON decodes back to the model it was written from")
    func roundTrip() throws {
        let bundle = try loadDogWalk()
        let model = bundle.current.model
        let decoder = JSONDecoder()
        #expect(try decoder.decode(Model.self, from: model.jsonRepresentation()) == model.withoutSourceLocations())
        #expect(try decoder.decode(Model.self, from: model.jsonRepresentation(includingLocations: true)) == model)
        #expect(try decoder.decode(ModelBundle.self, from: bundle.jsonRepresentation()) == bundle.withoutSourceLocations())
    }

    @Test("keys of every object are in sorted order")
    func sortedKeys() throws {
        let json = try loadDogWalk().jsonRepresentation(includingLocations: true)
        let objectKeys = try JSONKeyScanner.keysPerObject(in: json)
        #expect(objectKeys.count > 5)
        for keys in objectKeys {
            #expect(keys == keys.sorted(), "keys out of order: \(keys)")
        }
        #expect(objectKeys.contains { $0.contains("entities") })
    }

    @Test("a small model prints exactly as expected")
    func exactOutput() throws {
        let (model, diagnostics) = readModel(modelXML("""
            <entity name="Dog" representedClassName="Dog" syncable="YES" codeGenerationType="class">
                <attribute name="name" optional="YES" attributeType="String"/>
            </entity>
            """))
        #expect(diagnostics.isEmpty)
        let readModel = try #require(model)
        let json = try #require(String(data: try readModel.jsonRepresentation(), encoding: .utf8))
        let dog = try #require(json.range(of: "\"name\" : \"Dog\""))
        let name = try #require(json.range(of: "\"name\" : \"name\""))
        #expect(name.lowerBound < dog.lowerBound, "attributes sort before the entity's name")
        #expect(json.contains("\"type\" : \"String\""))
        #expect(json.hasPrefix("{\n  \""))
        #expect(!json.hasSuffix("\n"))
        #expect(!json.contains("\\/"), "slashes are not escaped")
    }
}

/// The keys of each JSON object in the order they are written: enough of a JSON reader to check
/// key order, which `JSONSerialization` does not keep.
private enum JSONKeyScanner {
    struct Malformed: Error {}

    static func keysPerObject(in data: Data) throws -> [[String]] {
        let bytes = Array(data)
        var finished: [[String]] = []
        // One entry per open container: the keys seen so far, or nil for an array.
        var open: [[String]?] = []
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "{"): open.append([])
            case UInt8(ascii: "["): open.append(nil)
            case UInt8(ascii: "}"):
                guard let keys = open.popLast() ?? nil else { throw Malformed() }
                finished.append(keys)
            case UInt8(ascii: "]"):
                guard open.popLast() != nil else { throw Malformed() }
            case UInt8(ascii: "\""):
                var end = index + 1
                while end < bytes.count && bytes[end] != UInt8(ascii: "\"") {
                    end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
                }
                guard end < bytes.count else { throw Malformed() }
                let text = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
                var next = end + 1
                while next < bytes.count && bytes[next] == UInt8(ascii: " ") { next += 1 }
                if next < bytes.count && bytes[next] == UInt8(ascii: ":") {
                    guard let last = open.indices.last, open[last] != nil else { throw Malformed() }
                    open[last]?.append(text)
                }
                index = end
            default: break
            }
            index += 1
        }
        guard open.isEmpty else { throw Malformed() }
        return finished
    }
}
