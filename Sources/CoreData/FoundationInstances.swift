import Foundation

/// Objects of Foundation classes that Foundation on Linux declares but gives no available
/// initializer (`NSExpression`, `NSComparisonPredicate`), for Core Data code that builds
/// predicates from expressions (QueryKit): Swift code cannot call an unavailable initializer,
/// so the Swift runtime allocates the object, as an initializer would, and the object takes
/// the stored properties of a `template` of its superclass that an available initializer made.
/// `NSExpression` stores nothing beyond `NSObject` (nothing), `NSComparisonPredicate` nothing
/// beyond `NSPredicate`; both are checked against the classes' instance sizes each time, so a
/// Foundation that adds storage stops the program with this message instead of getting a
/// broken object.
enum FoundationInstances {
    /// An object of `instanceType` holding `template`'s stored properties, moved out of it
    /// (Swift values move by copying their bytes): `template` is left with those of `empty`,
    /// which must own nothing (`NSPredicate(value:)`'s `Bool`), and released as usual.
    static func make<Object: AnyObject>(
        _ instanceType: Object.Type, takingStorageOf template: AnyObject, leaving empty: AnyObject
    ) -> Object {
        let layout = Layout(instanceType)
        precondition(
            Layout(type(of: template)) == layout && Layout(type(of: empty)) == layout,
            "CoreData: \(instanceType) no longer has the storage of \(type(of: template)); this Foundation cannot be given its objects")
        let object = allocate(instanceType, layout)
        let storage = layout.size - headerSize
        let source = Unmanaged.passUnretained(template).toOpaque().advanced(by: headerSize)
        object.advanced(by: headerSize).copyMemory(from: source, byteCount: storage)
        source.copyMemory(from: Unmanaged.passUnretained(empty).toOpaque().advanced(by: headerSize), byteCount: storage)
        return Unmanaged<Object>.fromOpaque(object).takeRetainedValue()
    }

    /// An object of `instanceType`, which must store nothing beyond `NSObject`.
    static func make<Object: NSObject>(_ instanceType: Object.Type) -> Object {
        let layout = Layout(instanceType)
        precondition(layout == Layout(NSObject.self), "CoreData: \(instanceType) has storage of its own in this Foundation; its objects cannot be made")
        return Unmanaged<Object>.fromOpaque(allocate(instanceType, layout)).takeRetainedValue()
    }

    /// A Swift object's header (metadata pointer and reference counts), before its storage.
    private static let headerSize = 2 * MemoryLayout<UInt>.size

    /// A class's instance size and alignment, read from its metadata as the Swift runtime does
    /// (the class metadata's `InstanceSize` and `InstanceAlignMask`, after the kind, superclass,
    /// flags and address point words of a platform without Objective-C).
    private struct Layout: Equatable {
        var size: Int
        var alignmentMask: Int

        init(_ type: AnyClass) {
            let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
            let offset = 2 * MemoryLayout<UInt>.size + 2 * MemoryLayout<UInt32>.size
            size = Int(metadata.load(fromByteOffset: offset, as: UInt32.self))
            alignmentMask = Int(metadata.load(fromByteOffset: offset + MemoryLayout<UInt32>.size, as: UInt16.self))
        }
    }

    /// `swift_allocObject`, the runtime's allocation of a class instance (reference count 1,
    /// storage uninitialized), looked up once.
    private static let allocateObject: @convention(c) (UnsafeRawPointer, Int, Int) -> UnsafeMutableRawPointer = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "swift_allocObject") else {
            preconditionFailure("CoreData: the Swift runtime's swift_allocObject is not found")
        }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeRawPointer, Int, Int) -> UnsafeMutableRawPointer).self)
    }()

    private static func allocate(_ type: AnyClass, _ layout: Layout) -> UnsafeMutableRawPointer {
        allocateObject(unsafeBitCast(type, to: UnsafeRawPointer.self), layout.size, layout.alignmentMask)
    }
}
