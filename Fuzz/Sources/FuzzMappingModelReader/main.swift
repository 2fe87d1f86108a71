import DataModelReader

/// Any bytes as an `xcmapping.xml`: the reader gives a mapping model or an error naming the file,
/// never traps (its keyed-archived expressions included).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMappingModelReader(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let path = "Fuzz.xcmappingmodel/xcmapping.xml"
    do {
        let document = try MappingModelReader().read(xml: Array(UnsafeBufferPointer(start: start, count: count)), path: path)
        // Every expression prints (the description walks the whole tree).
        for mapping in document.entityMappings {
            for property in mapping.attributeMappings + mapping.relationshipMappings { _ = property.valueExpression?.description }
        }
    } catch {
        if error.file != path || error.location.map({ $0.file != path }) ?? false {
            fatalError("an error does not name the file it is about: \(error)")
        }
    }
    return 0
}
