import Foundation

/// A Transformable cell whose transformer could not read it (none registered under the model's
/// name, or a value it cannot decode), kept as the stored bytes by a reader that asked for them.
package struct UndecodedTransformable: Sendable {
    package var data: Data
    /// Why it was not decoded.
    package var reason: String
}
