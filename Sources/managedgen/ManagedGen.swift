import ArgumentParser

@main
struct ManagedGen: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "managedgen",
        abstract: "Reads Core Data models and generates typed Swift managed-object code.",
        subcommands: [GenerateCommand.self, ValidateCommand.self, DumpCommand.self]
    )
}
