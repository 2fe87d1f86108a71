import ArgumentParser
import ManagedGenCommands

/// The generator the build and command plugins run: `managedgen` without the store commands,
/// so a package using the plugin builds neither the runtime nor GRDB for it; and the build
/// plugin's hidden `core-data-imports`.
@main
struct ManagedGenPluginTool: ParsableCommand {
    static let configuration: CommandConfiguration = {
        var configuration = ManagedGenCommandSet.configuration()
        configuration.subcommands.append(CoreDataImportsCommand.self)
        return configuration
    }()
}
