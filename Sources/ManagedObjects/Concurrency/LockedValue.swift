import Foundation

/// A value guarded by a lock, for the few settings read from other threads (a context's merge
/// flag, a container's store descriptions).
final class LockedValue<Value>: @unchecked Sendable {
    // Unchecked: `value` is used only while holding `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.withLock { body(&value) }
    }
}
