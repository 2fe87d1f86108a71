import Foundation

/// Keeps an observation alive; observing stops when it is cancelled or deallocated.
public final class ContextObservation: Sendable {
    private let cancellation: @Sendable () -> Void

    init(_ cancellation: @escaping @Sendable () -> Void) {
        self.cancellation = cancellation
    }

    public func cancel() { cancellation() }

    deinit { cancellation() }
}
