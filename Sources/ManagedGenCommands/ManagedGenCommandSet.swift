import ArgumentParser

/// The root command both executables share: `managedgen` (every command) and
/// `ManagedGenPluginTool` (the model commands alone, what the plugins run), so the two say the
/// same name and help and their model commands behave the same.
package enum ManagedGenCommandSet {
    /// The commands that read models: all the plugins need.
    package static func modelCommands() -> [any ParsableCommand.Type] {
        [GenerateCommand.self, ValidateCommand.self, DumpCommand.self]
    }

    /// The root command's configuration, with `storeCommands` after the model commands.
    package static func configuration(adding storeCommands: [any ParsableCommand.Type] = []) -> CommandConfiguration {
        CommandConfiguration(
            commandName: "managedgen",
            abstract: storeCommands.isEmpty
                ? "Reads Core Data models and generates typed Swift managed-object code."
                : "Reads Core Data models and generates typed Swift managed-object code; inspects, migrates and exports Core Data SQLite stores.",
            subcommands: modelCommands() + storeCommands
        )
    }
}
