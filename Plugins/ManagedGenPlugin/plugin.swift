import Foundation
import PackagePlugin

/// Generates managed-object classes for every Core Data model in a target, at build time.
///
/// Each model becomes one build command with its inputs (every file of the model, and the
/// target's `managedgen.json` if any) and its single output file declared, so the build system
/// runs the generator only when one of them changed.
@main
struct ManagedGenPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let module = target.sourceModule else { return [] }
        let generator = try context.tool(named: "ManagedGenPluginTool")
        let configuration = ModelSource.configurationFile(in: module.sourceFiles)
        let outputDirectory = context.pluginWorkDirectoryURL
        // ManagedGen's `CoreData` module (Linux): the target is Core Data code.
        let usesCoreDataModule = target.recursiveTargetDependencies.contains { $0.name == "CoreData" }

        let modelCommands: [Command] = ModelSource.models(in: module.sourceFiles).map { model in
            let output = outputDirectory.appending(path: "\(model.name)+ManagedGen.swift")
            var arguments = [
                "generate", model.root.path(percentEncoded: false),
                "--output-file", output.path(percentEncoded: false),
            ]
            if let configuration {
                arguments += ["--config", configuration.path(percentEncoded: false)]
            }
            if usesCoreDataModule {
                // Code written for Apple's Core Data reads to-manys as Xcode types them (`NSSet?`,
                // `NSOrderedSet?`); a managedgen.json that sets toManyCollections still wins.
                arguments += ["--default-to-many-collections", "foundation"]
            }
            return .buildCommand(
                displayName: "Generating managed objects for \(model.root.lastPathComponent)",
                executable: generator.url,
                arguments: arguments,
                // The folder itself is listed too: that tells SwiftPM the plugin handles it.
                inputFiles: [model.root] + model.files + (configuration.map { [$0] } ?? []),
                outputFiles: [output]
            )
        }
        guard usesCoreDataModule else { return modelCommands }
        // Files of Core Data code that import only Foundation name `Selector` and `URLSession`,
        // which Foundation gives on Apple platforms; one generated file re-exports them to the
        // whole target (the tool's `core-data-imports` says how).
        let imports = outputDirectory.appending(path: "CoreDataImports+ManagedGen.swift")
        return modelCommands + [
            .buildCommand(
                displayName: "Generating CoreData imports for \(target.name)",
                executable: generator.url,
                arguments: ["core-data-imports", "--output-file", imports.path(percentEncoded: false)],
                inputFiles: [],
                outputFiles: [imports]
            ),
        ]
    }
}
