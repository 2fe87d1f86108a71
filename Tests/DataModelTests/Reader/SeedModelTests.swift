import Testing
@testable import DataModel
@testable import DataModelReader

/// The three models of the seeds, written as Xcode writes them (`Fixtures/Seeds`), read back
/// into exactly the values built here.
@Suite("Seed models")
struct SeedModelTests {
    private func currentModel(_ bundle: String) throws -> Model {
        let result = ModelLoader().load(at: ReaderTestPaths.fixture("Seeds/\(bundle).xcdatamodeld"))
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let loaded = try #require(result.bundle)
        #expect(loaded.name == bundle)
        #expect(loaded.currentVersionName == bundle)
        return loaded.current.model.withoutSourceLocations()
    }

    private static func metadata(tools: String, system: String) -> ModelMetadata {
        ModelMetadata(
            userDefinedModelVersionIdentifier: "", type: "com.apple.IDECoreDataModeler.DataModel",
            documentVersion: "1.0", lastSavedToolsVersion: tools, systemVersion: system,
            minimumToolsVersion: "Automatic", sourceLanguage: "Swift")
    }

    @Test func tweetsAndTwitterUsers() throws {
        let model = try currentModel("Tweets")
        #expect(model == Model(
            entities: [
                Entity(
                    name: "Tweet", representedClassName: "Tweet", codeGeneration: .class, syncable: true,
                    attributes: [
                        Attribute(name: "created", type: .date, usesScalarValueType: false, syncable: true),
                        Attribute(name: "text", type: .string, syncable: true),
                        Attribute(name: "unique", type: .string, isOptional: true, syncable: true),
                    ],
                    relationships: [
                        Relationship(
                            name: "tweeter", destinationEntity: "TwitterUser", inverseName: "tweets",
                            inverseEntity: "TwitterUser", isOptional: true, maxCount: 1, syncable: true),
                    ]),
                Entity(
                    name: "TwitterUser", representedClassName: "TwitterUser", codeGeneration: .class,
                    syncable: true,
                    attributes: [
                        Attribute(name: "name", type: .string, syncable: true),
                        Attribute(name: "screenName", type: .string, syncable: true),
                    ],
                    relationships: [
                        Relationship(
                            name: "tweets", destinationEntity: "Tweet", inverseName: "tweeter",
                            inverseEntity: "Tweet", isToMany: true, isOptional: true, deleteRule: .cascade,
                            syncable: true),
                    ]),
            ],
            metadata: Self.metadata(tools: "11759", system: "16D32")))
    }

    @Test func dogsWithOrderedWalks() throws {
        let model = try currentModel("DogWalk")
        #expect(model == Model(
            entities: [
                Entity(
                    name: "Dog", representedClassName: "Dog", codeGeneration: .class, syncable: true,
                    attributes: [Attribute(name: "name", type: .string, isOptional: true)],
                    relationships: [
                        Relationship(
                            name: "walks", destinationEntity: "Walk", inverseName: "dog", inverseEntity: "Walk",
                            isToMany: true, isOrdered: true, isOptional: true, deleteRule: .cascade),
                    ]),
                Entity(
                    name: "Walk", representedClassName: "Walk", codeGeneration: .class, syncable: true,
                    attributes: [Attribute(name: "date", type: .date, usesScalarValueType: false)],
                    relationships: [
                        Relationship(
                            name: "dog", destinationEntity: "Dog", inverseName: "walks", inverseEntity: "Dog",
                            isOptional: true, maxCount: 1),
                    ]),
            ],
            metadata: Self.metadata(tools: "14490.99", system: "18F132")))
    }

    @Test func flightsAirportsAndAirlines() throws {
        let model = try currentModel("Flights")
        func string(_ name: String) -> Attribute { Attribute(name: name, type: .string) }
        func date(_ name: String, optional: Bool = false) -> Attribute {
            Attribute(name: name, type: .date, isOptional: optional, usesScalarValueType: false)
        }
        func double(_ name: String) -> Attribute {
            Attribute(name: name, type: .double, usesScalarValueType: true, defaultValueString: "0.0")
        }
        func toOne(_ name: String, _ destination: String, inverse: String) -> Relationship {
            Relationship(
                name: name, destinationEntity: destination, inverseName: inverse, inverseEntity: destination,
                isOptional: true, maxCount: 1)
        }
        func toMany(_ name: String, _ destination: String, inverse: String) -> Relationship {
            Relationship(
                name: name, destinationEntity: destination, inverseName: inverse, inverseEntity: destination,
                isToMany: true, isOptional: true)
        }
        #expect(model == Model(
            entities: [
                Entity(
                    name: "Airline", representedClassName: "Airline", codeGeneration: .class, syncable: true,
                    attributes: [string("code_"), string("name_"), string("shortname_")],
                    relationships: [toMany("flights_", "Flight", inverse: "airline_")],
                    uniquenessConstraints: [["code_"]]),
                Entity(
                    name: "Airport", representedClassName: "Airport", codeGeneration: .class, syncable: true,
                    attributes: [
                        string("city_"), string("countryCode"), string("icao_"), double("latitude"),
                        string("location"), double("longitude"), string("name"), string("state"),
                        string("timezone"),
                    ],
                    relationships: [
                        toMany("flightsFrom_", "Flight", inverse: "origin_"),
                        toMany("flightsTo_", "Flight", inverse: "destination_"),
                    ],
                    uniquenessConstraints: [["icao_"]]),
                Entity(
                    name: "Flight", representedClassName: "Flight", codeGeneration: .class, syncable: true,
                    attributes: [
                        date("actualOff"), date("actualOn"), string("aircraftType_"),
                        date("arrival", optional: true), date("estimatedOff"), date("estimatedOn"),
                        Attribute(
                            name: "filedAirspeed", type: .integer16, usesScalarValueType: true,
                            defaultValueString: "0"),
                        string("ident_"), date("scheduledIn"), date("scheduledOff_"), date("scheduledOn_"),
                        string("status_"),
                    ],
                    relationships: [
                        toOne("airline_", "Airline", inverse: "flights_"),
                        toOne("destination_", "Airport", inverse: "flightsTo_"),
                        toOne("origin_", "Airport", inverse: "flightsFrom_"),
                    ]),
            ],
            metadata: Self.metadata(tools: "17709", system: "20B29")))
    }

    @Test func storedPropertyOrderFollowsTheFile() throws {
        let model = try currentModel("DogWalk")
        let dog = try #require(model.entity(named: "Dog"))
        #expect(model.storedProperties(of: dog).map(\.name) == ["name", "walks"])
    }
}
