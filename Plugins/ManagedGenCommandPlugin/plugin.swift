import Foundation
import PackagePlugin

/// `swift package generate-managed-objects`: writes generated sources into the package, for
/// teams that commit them.
///
/// Machine files (`<Target>/ManagedGen/<Model>/…`) are rewritten on every run; one human file
/// per class (`<Target>/<Class>.swift`, an empty extension to put code in) is created once
/// and never overwritten.
@main
struct ManagedGenCommandPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let targetNames = Set(extractor.extractOption(named: "target"))
        let generator = try context.tool(named: "ManagedGenPluginTool")

        let targets = context.package.targets.compactMap(\.sourceModule).filter {
            targetNames.isEmpty || targetNames.contains($0.name)
        }
        if let missing = targetNames.subtracting(targets.map(\.name)).sorted().first {
            throw CommandPluginError("no target named '\(missing)' in this package")
        }

        var generatedAny = false
        for target in targets {
            let configuration = ModelSource.configurationFile(in: target.sourceFiles)
            for model in ModelSource.models(inDirectory: target.directoryURL) {
                generatedAny = true
                var arguments = [
                    "generate", model.root.path(percentEncoded: false),
                    "--output", target.directoryURL
                        .appending(path: "ManagedGen/\(model.name)").path(percentEncoded: false),
                    "--human-output", target.directoryURL.path(percentEncoded: false),
                ]
                if let configuration {
                    arguments += ["--config", configuration.path(percentEncoded: false)]
                }
                try run(generator.url, arguments)
                print("Generated \(model.root.lastPathComponent) into target \(target.name)")
            }
        }
        if !generatedAny {
            Diagnostics.warning("no .xcdatamodeld or .xcdatamodel found in the selected targets")
        }
    }

    private func run(_ executable: URL, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw CommandPluginError("managedgen exited with status \(process.terminationStatus)")
        }
    }
}

struct CommandPluginError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
