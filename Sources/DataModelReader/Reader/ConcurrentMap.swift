import Dispatch

/// `transform` of each element, run concurrently, in the elements' order.
package func concurrentMap<Element: Sendable, Result: Sendable>(
    _ elements: [Element], _ transform: @Sendable (Element) -> Result
) -> [Result] {
    guard elements.count > 1 else { return elements.map(transform) }
    let slots = UnsafeMutableBufferPointer<Result?>.allocate(capacity: elements.count)
    slots.initialize(repeating: nil)
    defer {
        slots.deinitialize()
        slots.deallocate()
    }
    // Each iteration writes its own slot, and `concurrentPerform` returns after all of them.
    nonisolated(unsafe) let results = slots
    DispatchQueue.concurrentPerform(iterations: elements.count) { index in
        results[index] = transform(elements[index])
    }
    return slots.map { $0! }
}
