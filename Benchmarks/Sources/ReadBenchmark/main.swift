import DataModelReader
import Foundation

// Times reading a synthetic 1,000-entity model (10 attributes and 3 relationships with inverses
// per entity) with the DataModel reader, with and without validation, and `xmllint --noout`
// on the same file for comparison when it is installed (apt package libxml2-utils).
//
//   swift run -c release ReadBenchmark [--entities 1000] [--runs 15]

let arguments = CommandLine.arguments
func option(_ name: String) -> Int? { arguments.firstIndex(of: name).flatMap { arguments.dropFirst($0 + 1).first }.flatMap(Int.init) }
let entityCount = option("--entities") ?? 1_000
let runs = option("--runs") ?? 15

/// A model in Xcode's own style: sorted names, 4-space indent, one element per line.
func syntheticModel(entities count: Int) -> String {
    func name(_ index: Int) -> String { "Entity" + String(repeating: "0", count: 4 - String(index).count) + String(index) }
    var xml = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">

        """
    for index in 0..<count {
        let entity = name(index)
        let owner = name((index + 1) % count)         // to-one `owner`, inverse to-many `owned`
        let ownedBy = name((index + count - 1) % count)
        let peer = name(index ^ 1 < count ? index ^ 1 : index)  // one-to-one `peer`, its own inverse
        xml += """
                <entity name="\(entity)" representedClassName="\(entity)" syncable="YES" codeGenerationType="class">
                    <attribute name="active" attributeType="Boolean" defaultValueString="NO" usesScalarValueType="YES"/>
                    <attribute name="count" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>
                    <attribute name="created" attributeType="Date" usesScalarValueType="NO"/>
                    <attribute name="identifier" attributeType="UUID" usesScalarValueType="NO"/>
                    <attribute name="name" attributeType="String" defaultValueString=""/>
                    <attribute name="note" optional="YES" attributeType="String">
                        <userInfo>
                            <entry key="JSONKeyPath" value="details.note"/>
                        </userInfo>
                    </attribute>
                    <attribute name="payload" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
                    <attribute name="score" optional="YES" attributeType="Double" defaultValueString="0.0" usesScalarValueType="YES"/>
                    <attribute name="tags" optional="YES" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromData" customClassName="[String]"/>
                    <attribute name="website" optional="YES" attributeType="URI"/>
                    <relationship name="owned" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="\(ownedBy)" inverseName="owner" inverseEntity="\(ownedBy)"/>
                    <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="\(owner)" inverseName="owned" inverseEntity="\(owner)"/>
                    <relationship name="peer" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="\(peer)" inverseName="peer" inverseEntity="\(peer)"/>
                    <uniquenessConstraints>
                        <uniquenessConstraint>
                            <constraint value="identifier"/>
                        </uniquenessConstraint>
                    </uniquenessConstraints>
                </entity>

            """
    }
    xml += "</model>"
    return xml
}

/// Median and minimum of the samples, in milliseconds. The machine may be busy with other
/// work; the minimum shows the cost without interference.
struct Timing {
    var median: Double
    var minimum: Double

    init(_ milliseconds: [Double]) {
        let sorted = milliseconds.sorted()
        median = sorted[sorted.count / 2]
        minimum = sorted[0]
    }

    var description: String { String(format: "median %7.2f ms, min %7.2f ms (%d runs)", median, minimum, runs) }
}

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15
}

/// CPU time of the calling thread: unlike wall time, it does not grow while other processes
/// have the processor.
func threadCPUMilliseconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) * 1e3 + Double(time.tv_nsec) / 1e6
}

func measure(_ body: () throws -> Void) rethrows -> Timing {
    try body()  // warm-up
    var samples: [Double] = []
    for _ in 0..<runs {
        let start = ContinuousClock.now
        try body()
        samples.append(milliseconds(ContinuousClock.now - start))
    }
    return Timing(samples)
}

func measureCPU(_ body: () -> Void) -> Timing {
    body()  // warm-up
    return Timing((0..<runs).map { _ in
        let start = threadCPUMilliseconds()
        body()
        return threadCPUMilliseconds() - start
    })
}

func findOnPath(_ tool: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ReadBenchmark-\(UUID().uuidString)")
let modelFolder = directory.appendingPathComponent("Synthetic.xcdatamodel")
try FileManager.default.createDirectory(at: modelFolder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
let contents = modelFolder.appendingPathComponent("contents")
let xml = syntheticModel(entities: entityCount)
try xml.write(to: contents, atomically: true, encoding: .utf8)

// Check once that the file reads as intended before timing it.
let check = ModelLoader().load(at: modelFolder.path)
guard let bundle = check.bundle, check.diagnostics.isEmpty else {
    print("the synthetic model did not read cleanly:\n\(check.diagnostics.prefix(10).map(\.description).joined(separator: "\n"))")
    exit(1)
}
let model = bundle.current.model
let attributeCount = model.entities.reduce(0) { $0 + $1.attributes.count }
let relationshipCount = model.entities.reduce(0) { $0 + $1.relationships.count }
print("model: \(model.entities.count) entities, \(attributeCount) attributes, \(relationshipCount) relationships, \(xml.utf8.count / 1024) KB")

let reader = ModelReader()
print("read (DataModel.ModelReader):            " + measure { _ = reader.read(at: modelFolder.path) }.description)
print("  same, thread CPU time:                 " + measureCPU { _ = reader.read(at: modelFolder.path) }.description)
print("read + validate (DataModel.ModelLoader): " + measure { _ = ModelLoader().load(at: modelFolder.path) }.description)
print("  same, thread CPU time:                 " + measureCPU { _ = ModelLoader().load(at: modelFolder.path) }.description)

if let xmllint = findOnPath("xmllint") {
    // xmllint --timing reports its own parse and free times (whole milliseconds), without
    // the cost of starting the process; the wall time includes it.
    var reported: [Double] = []
    let wall = try measure {
        let process = Process()
        let errors = Pipe()
        process.executableURL = URL(fileURLWithPath: xmllint)
        process.arguments = ["--noout", "--timing", contents.path]
        process.standardError = errors
        try process.run()
        let output = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let numbers = output.split(separator: "\n").compactMap { line -> Double? in
            guard line.hasPrefix("Parsing took") || line.hasPrefix("Freeing took") else { return nil }
            return line.split(separator: " ").dropFirst(2).first.flatMap { Double($0) }
        }
        reported.append(numbers.reduce(0, +))
    }
    print("xmllint --noout, parse + free reported:  " + Timing(Array(reported.dropFirst())).description)
    print("xmllint --noout, whole process:          " + wall.description)
} else {
    print("xmllint: not on PATH (apt-get install -y libxml2-utils), not measured")
}
