import ArgumentParser
import DataModelReader
import Foundation
import ManagedGenCore

/// `managedgen generate <model> --output <dir>`: reads a model and writes its Swift sources.
package struct GenerateCommand: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generates typed managed-object classes for a Core Data model.",
        discussion: """
            Options can also come from a JSON file: --config <path>, or managedgen.json next to the \
            model. Its keys are the options' names in camel case (accessLevel, optionality, \
            wrapperSuffix, singleFile, modelTypeName, manualCodegen, modelVersions, toManyCollections, snapshots); \
            flags override it, except --default-to-many-collections, which applies only when the file \
            does not set toManyCollections.
            Exit status: 0 on success, 1 when the model has errors (printed as path:line:col: error: …) \
            or files cannot be written; nothing is written then.
            """)

    @Argument(help: "The model: a .xcdatamodeld bundle, a .xcdatamodel folder or a contents file.")
    var model: String

    @Option(help: "The directory to write the generated files into.")
    var output: String?

    @Option(help: "Write everything into this one file instead (implies --single-file).")
    var outputFile: String?

    @Option(help: "A directory for files you own: one per class, created once, never overwritten.")
    var humanOutput: String?

    @Option(help: "A JSON configuration file (default: managedgen.json next to the model, if present).")
    var config: String?

    @Option(help: "Access level of generated declarations: public, package or internal.")
    var accessLevel: GeneratorOptions.AccessLevel?

    @Option(help: "xcode (Xcode's optionals and scalar rules) or strict (follow the model's optional flags).")
    var optionality: GeneratorOptions.Optionality?

    @Option(help: "Properties named with this suffix get a non-optional wrapper without it (\"\" turns it off).")
    var wrapperSuffix: String?

    @Flag(help: "One file for the model and all entities.")
    var singleFile = false

    @Option(help: "The name of the enum holding the model (default <ModelName>Model).")
    var modelTypeName: String?

    @Option(help: "Entities with Manual/None codegen: skip (as Xcode) or class (generate them too).")
    var manualCodegen: GeneratorOptions.ManualCodegen?

    @Option(help: "Versions of a .xcdatamodeld the generated model carries for migration: all (default) or current.")
    var modelVersions: GeneratorOptions.ModelVersions?

    @Option(help: "To-manys as swift (Set<T>, OrderedSet<T>) or foundation (Xcode's NSSet?, NSOrderedSet?).")
    var toManyCollections: GeneratorOptions.ToManyCollections?

    @Flag(help: "Give each class without subclasses a Sendable, Codable Snapshot struct, snapshot() and fetchSnapshots(where:sortedBy:in:).")
    var snapshots = false

    // The build plugin's choice for targets on the CoreData product: a configuration file's
    // `toManyCollections` still wins over it.
    @Option(help: "The to-many typing when neither --to-many-collections nor the configuration file sets it.")
    var defaultToManyCollections: GeneratorOptions.ToManyCollections?

    @Flag(help: "Print the paths of the files that would be generated, one per line, and write nothing.")
    var listOutputs = false

    @OptionGroup var diagnosticOptions: DiagnosticOptions

    package func validate() throws {
        if output == nil && outputFile == nil && !listOutputs {
            throw ValidationError("give --output <dir> or --output-file <file>")
        }
        if output != nil && outputFile != nil {
            throw ValidationError("--output and --output-file cannot be used together")
        }
    }

    package func run() throws {
        let options: GeneratorOptions
        do {
            options = try resolvedOptions()
        } catch let error as ConfigurationError {
            printError(error.description)
            throw ExitCode.failure
        }
        let modelFileName = URL(fileURLWithPath: model).lastPathComponent
        // Code is generated for the current version, which alone is validated in full (`validate`
        // checks them all); the others are read only when the model carries them for migration.
        let bundle = try ModelLoading.load(
            model, versions: options.modelVersions == .all ? .all : .currentOnly, validating: .currentOnly,
            options: diagnosticOptions)

        let generator = Generator(options: options)
        if listOutputs {
            if let outputFile {
                print(outputFile)
            } else {
                for name in generator.outputFileNames(for: bundle.current.model, modelFileName: modelFileName) {
                    print(output.map { URL(fileURLWithPath: $0).appendingPathComponent(name).path } ?? name)
                }
            }
            return
        }

        let generated = generator.generate(bundle, modelFileName: modelFileName)
        var failed = false
        for var diagnostic in generated.diagnostics {
            if diagnosticOptions.warningsAsErrors && diagnostic.severity == .warning { diagnostic.severity = .error }
            if diagnostic.severity == .error { failed = true }
            if diagnosticOptions.quiet && diagnostic.severity != .error { continue }
            printError(diagnostic.description(defaultFile: model))
        }
        guard !failed else { throw ExitCode.failure }
        let writer = OutputWriter()
        do {
            if let outputFile {
                try writer.write(generated.files[0].contents, toFile: URL(fileURLWithPath: outputFile))
            } else if let output {
                let report = try writer.write(generated.files, toDirectory: URL(fileURLWithPath: output))
                // The build plugin writes with --output-file and stays silent; a person running
                // the CLI is told what happened.
                if !diagnosticOptions.quiet {
                    print("Generated \(generated.files.count) file(s) for \(modelFileName) in \(output): "
                        + "\(report.written.count) written, \(report.unchanged.count) unchanged, \(report.removed.count) removed")
                }
            }
            if let humanOutput {
                let created = try writer.writeIfAbsent(
                    generator.humanFiles(for: bundle.current.model, modelFileName: modelFileName),
                    toDirectory: URL(fileURLWithPath: humanOutput))
                if !diagnosticOptions.quiet && !created.isEmpty {
                    print("Created \(created.joined(separator: ", ")) in \(humanOutput) for your code")
                }
            }
        } catch {
            printError("error: \(error.localizedDescription)")
            throw ExitCode.failure
        }
    }

    /// The config file's options (explicit, or `managedgen.json` beside the model), then flags.
    private func resolvedOptions() throws -> GeneratorOptions {
        var options = GeneratorOptions(toManyCollections: defaultToManyCollections ?? .swift)
        let modelURL = URL(fileURLWithPath: model)
        let defaultConfig = modelURL.deletingLastPathComponent().appendingPathComponent("managedgen.json").path
        if let path = config ?? (FileManager.default.fileExists(atPath: defaultConfig) ? defaultConfig : nil) {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ConfigurationError(description: "\(path): error: cannot read the configuration file")
            }
            do {
                options = try JSONDecoder().decode(GeneratorOptions.self, from: data)
                let keys = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
                if let defaultToManyCollections, keys?["toManyCollections"] == nil {
                    options.toManyCollections = defaultToManyCollections
                }
            } catch {
                throw ConfigurationError(description: "\(path): error: invalid configuration: \(Self.describe(error))")
            }
        }
        if let accessLevel { options.accessLevel = accessLevel }
        if let optionality { options.optionality = optionality }
        if let wrapperSuffix { options.wrapperSuffix = wrapperSuffix }
        if singleFile || outputFile != nil { options.singleFile = true }
        if let modelTypeName { options.modelTypeName = modelTypeName }
        if let manualCodegen { options.manualCodegen = manualCodegen }
        if let modelVersions { options.modelVersions = modelVersions }
        if let toManyCollections { options.toManyCollections = toManyCollections }
        if snapshots { options.snapshots = true }
        return options
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context), DecodingError.typeMismatch(_, let context),
             DecodingError.valueNotFound(_, let context), DecodingError.keyNotFound(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? context.debugDescription : "'\(path)': \(context.debugDescription)"
        default:
            return "\(error)"
        }
    }
}

private struct ConfigurationError: Error, CustomStringConvertible {
    var description: String
}

private func printError(_ message: String) {
    ModelLoading.printToStandardError(message)
}

extension Diagnostic {
    /// The diagnostic, naming `defaultFile` when it has no location of its own.
    func description(defaultFile: String) -> String {
        location == nil ? "\(defaultFile): \(description)" : description
    }
}

extension GeneratorOptions.AccessLevel: ExpressibleByArgument {}
extension GeneratorOptions.Optionality: ExpressibleByArgument {}
extension GeneratorOptions.ManualCodegen: ExpressibleByArgument {}
extension GeneratorOptions.ModelVersions: ExpressibleByArgument {}
extension GeneratorOptions.ToManyCollections: ExpressibleByArgument {}
