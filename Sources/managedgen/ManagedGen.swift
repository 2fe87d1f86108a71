import ArgumentParser
import ManagedGenCommands
import StoreTools

/// `managedgen`: the model commands (generate, validate, dump) and the store tools (inspect,
/// diff, migrate, export).
@main
struct ManagedGen: ParsableCommand {
    static let configuration = ManagedGenCommandSet.configuration(adding: StoreToolCommands.all())
}
