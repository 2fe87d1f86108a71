import Foundation
@testable import ManagedObjects

/// Swift ports of the `NSEntityMigrationPolicy` subclasses the apps in `shared/stores` ship
/// (their sources are under `shared/stores/<repo>/policies/`), registered under the class names
/// their mapping models give.
enum AppMigrationPolicies {
    static func registerAll() {}
}
