import Foundation

/// A value guarded by a lock, for the few settings read from other threads (a context's merge
/// flag, a container's store descriptions).
package final class LockedValue<Value>: @unchecked Sendable {
    // Unchecked: `value` is used only while holding `lock`.
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) { self.value = value }

    package func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.withLock { body(&value) }
    }
}
