import Foundation

/// Custom policies by the name entity mappings give (`entityMigrationPolicyClassName`), as Core
/// Data finds `NSEntityMigrationPolicy` subclasses by class name.
public enum EntityMigrationPolicies {
    private static let registered = LockedValue<[String: EntityMigrationPolicy.Type]>([:])

    public static func register(_ type: EntityMigrationPolicy.Type, named name: String) {
        registered.withLock { $0[name] = type }
    }

    /// The policy registered under `name`; for a module-qualified name as Xcode writes Swift
    /// classes (`App.CarPolicy`, `REPLACE_AT_RUNTIME.CarPolicy`) not registered as such, the one
    /// registered under the class name alone (`CarPolicy`).
    static func policy(named name: String) -> (EntityMigrationPolicy.Type)? {
        registered.withLock { registered in
            registered[name] ?? name.split(separator: ".").last.flatMap { registered[String($0)] }
        }
    }
}
