// Shared by GenerateBenchmark and GeneratedCodeBenchmark (a symlink there): the synthetic
// model and the small process and timing helpers both need.
import Foundation

/// A model with `count` entities in a chain: each has attributes of every common type (some with
/// the `_` wrapper convention), a uniqueness constraint, a to-one to the next entity, and the
/// inverse to-many (every third one ordered).
func syntheticModel(entities count: Int) -> String {
    var xml = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" \
        systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">

        """
    for index in 0..<count {
        let next = (index + 1) % count
        let previous = (index + count - 1) % count
        let ordered = previous % 3 == 0 ? " ordered=\"YES\"" : ""
        xml += """
                <entity name="Entity\(index)" representedClassName="Entity\(index)" syncable="YES" codeGenerationType="class">
                    <attribute name="code_" optional="YES" attributeType="String"/>
                    <attribute name="count" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>
                    <attribute name="created" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
                    <attribute name="data" optional="YES" attributeType="Binary"/>
                    <attribute name="flag" attributeType="Boolean" usesScalarValueType="YES"/>
                    <attribute name="identifier" optional="YES" attributeType="UUID" usesScalarValueType="NO"/>
                    <attribute name="legacy" optional="YES" attributeType="Integer 64" defaultValueString="0"/>
                    <attribute name="name_" optional="YES" attributeType="String"/>
                    <attribute name="price" optional="YES" attributeType="Decimal" defaultValueString="0.0"/>
                    <attribute name="ratio" attributeType="Double" defaultValueString="0.0" usesScalarValueType="YES"/>
                    <relationship name="next_" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Entity\(next)" inverseName="previous" inverseEntity="Entity\(next)"/>
                    <relationship name="previous" optional="YES" toMany="YES" deletionRule="Nullify"\(ordered) destinationEntity="Entity\(previous)" inverseName="next_" inverseEntity="Entity\(previous)"/>
                    <uniquenessConstraints>
                        <uniquenessConstraint>
                            <constraint value="code_"/>
                        </uniquenessConstraint>
                    </uniquenessConstraints>
                </entity>

            """
    }
    return xml + "</model>\n"
}

func measure<T>(_ body: () throws -> T) rethrows -> (T, Double) {
    let start = DispatchTime.now().uptimeNanoseconds
    let result = try body()
    return (result, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
}

/// The user + system seconds of the child processes that ended while `body` ran: a compiler's
/// own work, which moves much less than wall time on a machine shared with other builds.
func measureChildCPU<T>(_ body: () throws -> T) rethrows -> (T, Double) {
    func childSeconds() -> Double {
        var usage = rusage()
        #if os(Linux)
        getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
        #else
        getrusage(RUSAGE_CHILDREN, &usage)
        #endif
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
    let start = childSeconds()
    let result = try body()
    return (result, childSeconds() - start)
}

@discardableResult
func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

func which(_ tool: String) -> String? {
    (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        .map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}
