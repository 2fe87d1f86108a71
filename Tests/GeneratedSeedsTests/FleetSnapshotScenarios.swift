// Snapshots of a class tree (Models/Fleet.xcdatamodel, `managedgen.snapshots` on every entity):
// the abstract `Vehicle`, the concrete `Car` with its subclass `SportsCar`, and `Bicycle`. Each
// concrete class has its own `Snapshot`; the root has `AnySnapshot`, one case per concrete
// entity; fetches with a format string or a `#Predicate`, on an SQLite store.
import Foundation
import ManagedObjects
import Testing

@Suite struct FleetSnapshotScenarios {
    /// A store with a depot holding a car, a sports car and a bicycle; its directory goes with it.
    final class Fleet: Sendable {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-\(UUID().uuidString)")
        let container: PersistentContainer

        init() throws {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            container = PersistentContainer(name: "Fleet", managedObjectModel: FleetModel.managedObjectModel)
            container.persistentStoreDescriptions = [PersistentStoreDescription(url: directory.appendingPathComponent("Fleet.sqlite"))]
            try container.loadPersistentStores()
            let context = container.newBackgroundContext()
            try context.performAndWait {
                let depot = Depot(context: context)
                depot.name = "North"
                let car = Car(context: context)
                car.plate = "C1"
                car.seats = 4
                let sportsCar = SportsCar(context: context)
                sportsCar.plate = "S1"
                sportsCar.seats = 2
                sportsCar.topSpeed = 300
                let bicycle = Bicycle(context: context)
                bicycle.plate = "B1"
                bicycle.wheels = 2
                bicycle.gears = 21
                for vehicle in [car, sportsCar, bicycle] as [Vehicle] { vehicle.depot = depot }
                depot.flagship = sportsCar
                try context.save()
            }
        }

        deinit { try? FileManager.default.removeItem(at: directory) }
    }

    @Test func aToOneIntoTheTreeNamesTheSubEntityItsRowSays() throws {
        let fleet = try Fleet()
        let context = fleet.container.newBackgroundContext()
        try context.performAndWait {
            // Depot.flagship's destination, Vehicle, has sub-entities: the row's entity column
            // says which; SportsCar.flagshipOf's destination, Depot, has none.
            let depot = try #require(try Depot.fetchSnapshots(in: context).first)
            let sportsCar = try #require(try SportsCar.fetchSnapshots(in: context).first)
            #expect(depot.flagship?.managedObjectID == sportsCar.objectID.managedObjectID)
            #expect(depot.flagship?.managedObjectID.entity.name == "SportsCar")
            #expect(sportsCar.flagshipOf == depot.objectID)
            let car = try #require(try Car.fetchSnapshots(in: context).first)
            #expect(car.flagshipOf == nil)
            #expect(context.registeredObjects.isEmpty)
        }
    }

    static let byPlate = [ObjectSortDescriptor(key: Vehicle.Keys.plate, ascending: true)]

    @Test func eachConcreteClassFetchesTheRowsOfItsOwnEntity() throws {
        let fleet = try Fleet()
        let context = fleet.container.newBackgroundContext()
        try context.performAndWait {
            let cars = try Car.fetchSnapshots(in: context)
            #expect(cars.map(\.plate) == ["C1"], "a Car.Snapshot has no field of a SportsCar: SportsCar rows are left out")
            #expect(cars.map(\.seats) == [4] && cars.map(\.wheels) == [4])
            let sportsCars = try SportsCar.fetchSnapshots(in: context)
            #expect(sportsCars.map(\.topSpeed) == [300] && sportsCars.map(\.seats) == [2])
            let bicycles = try Bicycle.fetchSnapshots(in: context)
            #expect(bicycles.map(\.gears) == [21] && bicycles.map(\.wheels) == [2])
            let depot = try #require(try Depot.fetchSnapshots(in: context).first)
            #expect(Set(depot.vehicles) == Set((cars.map(\.objectID.managedObjectID) + sportsCars.map(\.objectID.managedObjectID)
                + bicycles.map(\.objectID.managedObjectID)).compactMap(ObjectID<Vehicle>.init)))
            #expect(cars[0].depot == depot.objectID && context.registeredObjects.isEmpty)

            // From objects: the class's own snapshot, and its superclass's through a superclass reference.
            let sportsCar = try #require(try SportsCar.fetch(in: context).first)
            let own: SportsCar.Snapshot = sportsCar.snapshot()
            #expect(own == sportsCars[0])
            let asCar: Car.Snapshot = (sportsCar as Car).snapshot()
            #expect(asCar.plate == "S1" && asCar.seats == 2 && asCar.objectID.managedObjectID == sportsCar.objectID)
        }
    }

    @Test func theRootsAnySnapshotHoldsEveryConcreteEntity() throws {
        let fleet = try Fleet()
        let context = fleet.container.newBackgroundContext()
        let all = try context.performAndWait {
            let all = try Vehicle.fetchAnySnapshots(sortedBy: Self.byPlate, in: context)
            #expect(context.registeredObjects.isEmpty, "fetchAnySnapshots makes no managed object")
            guard all.count == 3, case .bicycle(let bicycle) = all[0], case .car(let car) = all[1],
                  case .sportsCar(let sportsCar) = all[2] else {
                Issue.record("expected a bicycle, a car and a sports car: \(all)")
                return all
            }
            #expect(bicycle.gears == 21 && car.seats == 4 && sportsCar.topSpeed == 300)
            // Called on a subclass: its entity and its sub-entities.
            let cars = try Car.fetchAnySnapshots(sortedBy: Self.byPlate, in: context)
            #expect(cars == [all[1], all[2]])
            // The same values from objects.
            let fromObjects = try Vehicle.fetch(sortedBy: Self.byPlate, in: context).map { $0.anySnapshot() }
            #expect(fromObjects == all)
            return all
        }
        let json = try JSONEncoder().encode(all)
        #expect(try JSONDecoder().decode([Vehicle.AnySnapshot].self, from: json) == all)
    }

    @Test func typedPredicatesFetchSnapshots() throws {
        let fleet = try Fleet()
        let context = fleet.container.newBackgroundContext()
        try context.performAndWait {
            let roomy = try Car.fetchSnapshots(where: #Predicate<Car> { $0.seats > 3 }, in: context)
            #expect(roomy.map(\.plate) == ["C1"])
            let fast = try SportsCar.fetchSnapshots(
                where: #Predicate<SportsCar> { $0.topSpeed > 100 }, sortedBy: [SortDescriptor(\SportsCar.plate)], in: context)
            #expect(fast.map(\.plate) == ["S1"])
            let twoWheels = try Vehicle.fetchAnySnapshots(where: #Predicate<Vehicle> { $0.wheels == 2 }, in: context)
            guard twoWheels.count == 1, case .bicycle(let bicycle) = twoWheels[0] else {
                Issue.record("expected the bicycle: \(twoWheels)")
                return
            }
            #expect(bicycle.plate == "B1")
            let named = try Depot.fetchSnapshots(where: #Predicate<Depot> { $0.name == "North" }, in: context)
            #expect(named.count == 1 && named[0].vehicles.count == 3)
            let byFormat = try Car.fetchSnapshots(where: ObjectPredicate("seats > 3"), in: context)
            #expect(byFormat == roomy)
        }
    }
}
