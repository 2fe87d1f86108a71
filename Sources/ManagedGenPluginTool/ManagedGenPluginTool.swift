import ArgumentParser
import ManagedGenCommands

/// The generator the build and command plugins run: `managedgen` without the store commands,
/// so a package using the plugin builds neither the runtime nor GRDB for it.
@main
struct ManagedGenPluginTool: ParsableCommand {
    static let configuration = ManagedGenCommandSet.configuration()
}
