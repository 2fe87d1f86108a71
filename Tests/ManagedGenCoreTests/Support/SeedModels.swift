import DataModelReader

/// The seeds' models built as values, for tests that must not depend on the reader.
enum SeedModels {
    static let dogWalk = Model(entities: [
        Entity(name: "Dog", representedClassName: "Dog", codeGeneration: .class, attributes: [
            Attribute(name: "name", type: .string, isOptional: true),
        ], relationships: [
            Relationship(name: "walks", destinationEntity: "Walk", inverseName: "dog", inverseEntity: "Walk",
                         isToMany: true, isOrdered: true, isOptional: true),
        ]),
        Entity(name: "Walk", representedClassName: "Walk", codeGeneration: .class, attributes: [
            Attribute(name: "date", type: .date, isOptional: true),
        ], relationships: [
            Relationship(name: "dog", destinationEntity: "Dog", inverseName: "walks", inverseEntity: "Dog", isOptional: true),
        ]),
    ])

    static let flights = Model(entities: [
        Entity(name: "Airport", representedClassName: "Airport", codeGeneration: .class, attributes: [
            Attribute(name: "city_", type: .string, isOptional: true),
            Attribute(name: "icao_", type: .string, isOptional: true),
            Attribute(name: "latitude", type: .double, isOptional: true, usesScalarValueType: true, defaultValueString: "0.0"),
        ], relationships: [
            Relationship(name: "flightsFrom_", destinationEntity: "Flight", inverseName: "origin_", inverseEntity: "Flight",
                         isToMany: true, isOptional: true),
            Relationship(name: "flightsTo_", destinationEntity: "Flight", inverseName: "destination_", inverseEntity: "Flight",
                         isToMany: true, isOptional: true),
        ], uniquenessConstraints: [["icao_"]]),
        Entity(name: "Flight", representedClassName: "Flight", codeGeneration: .class, attributes: [
            Attribute(name: "ident_", type: .string, isOptional: true),
            Attribute(name: "filedAirspeed_", type: .integer32, isOptional: true, usesScalarValueType: true, defaultValueString: "0"),
        ], relationships: [
            Relationship(name: "origin_", destinationEntity: "Airport", inverseName: "flightsFrom_", inverseEntity: "Airport", isOptional: true),
            Relationship(name: "destination_", destinationEntity: "Airport", inverseName: "flightsTo_", inverseEntity: "Airport", isOptional: true),
        ]),
    ])
}
