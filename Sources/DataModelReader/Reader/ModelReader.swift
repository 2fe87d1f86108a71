#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads Xcode Core Data model files with libxml2, recording where every element came from.
///
/// It takes any of the forms Xcode and real projects use:
/// - a `.xcdatamodeld` bundle: every `.xcdatamodel` version inside it is read (or the current
///   one alone, `VersionSelection.currentOnly`); the current one
///   is named by `.xccurrentversion` (key `_XCCurrentVersionName`). Without that name, a bundle
///   with one version uses it; with several, the version named like the bundle, else the last
///   in natural order (`Model 10` after `Model 9`), with a warning.
/// - a `.xcdatamodel` folder (its `contents` file);
/// - a `contents` file, or any XML file whose root is `<model>`.
///
/// Pre-Xcode 4 versions (binary `elements` and `layout` files, no `contents`) cannot be read:
/// that is an error for the current version and a warning for any other version, which is then
/// left out of the bundle, so a bundle that mixes old binary and newer XML versions still
/// reads. The reader only reads; `ModelValidator` checks the model's consistency and
/// `ModelLoader` does both.
public struct ModelReader: Sendable {
    public var limits: ReaderLimits

    public init(limits: ReaderLimits = .default) {
        self.limits = limits
    }

    /// Reads the model at `path`.
    /// - Parameters:
    ///   - versionName: the version to treat as current (with or without `.xcdatamodel`),
    ///     overriding `.xccurrentversion`; `nil` to use the bundle's choice.
    ///   - versions: every version of a bundle, or the current one alone.
    public func read(at path: String, versionName: String? = nil, versions: VersionSelection = .all) -> ModelReadResult {
        let path = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        var diagnostics: [Diagnostic] = []
        let bundle: ModelBundle?
        switch FileSystem.kind(of: path) {
        case .missing:
            diagnostics.append(.error("no such file or directory", at: SourceLocation(file: path)))
            bundle = nil
        case .file:
            bundle = readSingleVersion(
                contentsPath: path, name: Self.versionName(ofContentsFile: path),
                bundlePath: path, diagnostics: &diagnostics)
        case .directory:
            if path.hasSuffix(".xcdatamodeld") {
                bundle = readBundle(at: path, versionName: versionName, versions: versions, diagnostics: &diagnostics)
            } else if path.hasSuffix(".xcdatamodel") || FileSystem.kind(of: path + "/contents") == .file
                        || FileSystem.kind(of: path + "/elements") == .file {
                bundle = readSingleVersion(
                    contentsPath: path + "/contents", name: Self.baseName(path, dropping: ".xcdatamodel"),
                    bundlePath: path, diagnostics: &diagnostics)
            } else {
                diagnostics.append(.error(
                    "not a Core Data model: expected a .xcdatamodeld bundle, a .xcdatamodel folder or a contents file",
                    at: SourceLocation(file: path)))
                bundle = nil
            }
        }
        if let bundle, let versionName, !path.hasSuffix(".xcdatamodeld"),
           versionName != bundle.currentVersionName, versionName != bundle.currentVersionName + ".xcdatamodel" {
            diagnostics.append(.error(
                "there is no version '\(versionName)': this is a single model version, '\(bundle.currentVersionName)'",
                at: SourceLocation(file: path)))
        }
        return ModelReadResult(bundle: bundle, diagnostics: diagnostics.sortedByLocation())
    }

    /// Reads one `contents` document held in memory. `path` names it in diagnostics, which
    /// come sorted by line and column.
    public func readModel(xml bytes: [UInt8], path: String) -> (model: Model?, diagnostics: [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        if bytes.starts(with: Self.binaryPropertyListMagic) {
            diagnostics.append(.error(Self.binaryFormatMessage, at: SourceLocation(file: path)))
            return (nil, diagnostics)
        }
        guard let root = XMLTree.parse(
            bytes, path: path, limits: limits, keepsText: false, diagnostics: &diagnostics)
        else { return (nil, diagnostics) }
        guard root.name == "model" else {
            diagnostics.append(.error(
                "expected a <model> root element, found <\(root.name)>; this is not a Core Data model file",
                at: root.location))
            return (nil, diagnostics)
        }
        var reader = ModelDocumentReader()
        let model = reader.readModel(root)
        return (model, (diagnostics + reader.diagnostics).sortedByLocation())
    }

    // MARK: - Forms

    private func readSingleVersion(
        contentsPath: String, name: String, bundlePath: String, diagnostics: inout [Diagnostic]
    ) -> ModelBundle? {
        switch readVersion(contentsPath: contentsPath, diagnostics: &diagnostics) {
        case .model(let model):
            let version = ModelVersion(name: name, path: contentsPath, model: model)
            return ModelBundle(
                name: name, path: bundlePath, versions: [version], currentVersionName: name)
        case .binary(let location):
            diagnostics.append(.error(Self.binaryFormatMessage, at: location))
            return nil
        case .unreadable:
            return nil
        }
    }

    private func readBundle(
        at path: String, versionName requestedVersion: String?, versions selection: VersionSelection,
        diagnostics: inout [Diagnostic]
    ) -> ModelBundle? {
        let bundleName = Self.baseName(path, dropping: ".xcdatamodeld")
        let versionNames: [String]
        do {
            versionNames = try FileSystem.directoryEntries(path)
                .filter { $0.hasSuffix(".xcdatamodel") && FileSystem.kind(of: path + "/" + $0) == .directory }
                .map { String($0.dropLast(".xcdatamodel".count)) }
                .sorted(by: naturallyOrdered)
        } catch {
            diagnostics.append(.error("cannot list the bundle: \(error)", at: SourceLocation(file: path)))
            return nil
        }
        guard !versionNames.isEmpty else {
            diagnostics.append(.error(
                "the model bundle holds no model versions (no .xcdatamodel folders)",
                at: SourceLocation(file: path)))
            return nil
        }
        guard let currentName = chooseCurrentVersion(
            of: versionNames, bundlePath: path, bundleName: bundleName,
            requested: requestedVersion, diagnostics: &diagnostics)
        else { return nil }

        // The versions are independent files: read at once, on as many cores as there are
        // (a bundle can hold a hundred versions), their results and diagnostics kept in order.
        let names = versionNames.filter { selection == .all || $0 == currentName }
        let reads = concurrentMap(names) { name -> (read: VersionRead, diagnostics: [Diagnostic]) in
            var diagnostics: [Diagnostic] = []
            let read = readVersion(contentsPath: path + "/" + name + ".xcdatamodel/contents", diagnostics: &diagnostics)
            return (read, diagnostics)
        }
        var versions: [ModelVersion] = []
        var currentIsReadable = false
        for (name, result) in zip(names, reads) {
            let contentsPath = path + "/" + name + ".xcdatamodel/contents"
            diagnostics += result.diagnostics
            switch result.read {
            case .model(let model):
                versions.append(ModelVersion(name: name, path: contentsPath, model: model))
                if name == currentName { currentIsReadable = true }
            case .binary(let location):
                if name == currentName {
                    diagnostics.append(.error(
                        "the current version '\(name)' uses the " + Self.binaryFormatMessage, at: location))
                } else {
                    diagnostics.append(.warning(
                        "version '\(name)' skipped: it uses the " + Self.binaryFormatMessage, at: location))
                }
            case .unreadable:
                break
            }
        }
        guard currentIsReadable else { return nil }
        return ModelBundle(name: bundleName, path: path, versions: versions, currentVersionName: currentName)
    }

    private func chooseCurrentVersion(
        of versionNames: [String], bundlePath: String, bundleName: String, requested: String?,
        diagnostics: inout [Diagnostic]
    ) -> String? {
        if let requested {
            let name = requested.hasSuffix(".xcdatamodel") ? String(requested.dropLast(12)) : requested
            guard versionNames.contains(name) else {
                diagnostics.append(.error(
                    "the bundle has no version '\(name)'; its versions are \(Self.list(versionNames))",
                    at: SourceLocation(file: bundlePath)))
                return nil
            }
            return name
        }
        let currentVersionPath = bundlePath + "/.xccurrentversion"
        if let (named, location) = readCurrentVersionName(at: currentVersionPath, diagnostics: &diagnostics) {
            let name = named.hasSuffix(".xcdatamodel") ? String(named.dropLast(12)) : named
            guard versionNames.contains(name) else {
                diagnostics.append(.error(
                    ".xccurrentversion names '\(named)', which is not in the bundle; its versions are \(Self.list(versionNames))",
                    at: location))
                return nil
            }
            return name
        }
        if versionNames.count == 1 { return versionNames[0] }
        let chosen: String
        let reason: String
        if versionNames.contains(bundleName) {
            chosen = bundleName
            reason = "the one named like the bundle"
        } else {
            chosen = versionNames[versionNames.count - 1]
            reason = "the last in natural order"
        }
        diagnostics.append(.warning(
            "the bundle has \(versionNames.count) versions and no current version in .xccurrentversion; using '\(chosen)', \(reason)",
            at: SourceLocation(file: bundlePath)))
        return chosen
    }

    /// The `_XCCurrentVersionName` of a `.xccurrentversion` plist, or `nil` when the file is
    /// missing, empty or names nothing. A file that cannot be parsed is a warning: the version
    /// is then chosen as if it were missing.
    private func readCurrentVersionName(
        at path: String, diagnostics: inout [Diagnostic]
    ) -> (name: String, location: SourceLocation)? {
        guard FileSystem.kind(of: path) == .file else { return nil }
        var plistDiagnostics: [Diagnostic] = []
        let plistLimits = ReaderLimits(maxFileSize: 1 << 20, maxDepth: 16, maxNodes: 10_000)
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.contents(of: path, maxSize: plistLimits.maxFileSize)
        } catch {
            diagnostics.append(.warning("\(error)", at: SourceLocation(file: path)))
            return nil
        }
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return nil }
        guard let root = XMLTree.parse(
            bytes, path: path, limits: plistLimits, keepsText: true, diagnostics: &plistDiagnostics),
            root.name == "plist", let dictionary = root.children.first, dictionary.name == "dict"
        else {
            diagnostics += plistDiagnostics.map { Diagnostic(.warning, $0.message, at: $0.location) }
            diagnostics.append(.warning(
                "cannot read .xccurrentversion (expected an XML property list with a <dict>); choosing the current version without it",
                at: SourceLocation(file: path)))
            return nil
        }
        let entries = dictionary.children
        for (index, entry) in entries.enumerated()
        where entry.name == "key" && entry.text == "_XCCurrentVersionName" && index + 1 < entries.count {
            let value = entries[index + 1]
            if value.name == "string" && !value.text.isEmpty { return (value.text, value.location) }
        }
        return nil
    }

    // MARK: - One version

    private enum VersionRead {
        case model(Model)
        case binary(SourceLocation)
        case unreadable
    }

    private func readVersion(contentsPath: String, diagnostics: inout [Diagnostic]) -> VersionRead {
        let folder = String(contentsPath.dropLast("/contents".count))
        switch FileSystem.kind(of: contentsPath) {
        case .file:
            break
        case .directory:
            diagnostics.append(.error("expected a file, found a directory", at: SourceLocation(file: contentsPath)))
            return .unreadable
        case .missing:
            if contentsPath.hasSuffix("/contents"), FileSystem.kind(of: folder + "/elements") == .file {
                return .binary(SourceLocation(file: folder + "/elements"))
            }
            diagnostics.append(.error(
                "the model version has no contents file", at: SourceLocation(file: folder)))
            return .unreadable
        }
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.contents(of: contentsPath, maxSize: limits.maxFileSize)
        } catch {
            diagnostics.append(.error("\(error)", at: SourceLocation(file: contentsPath)))
            return .unreadable
        }
        if bytes.starts(with: Self.binaryPropertyListMagic) {
            return .binary(SourceLocation(file: contentsPath))
        }
        let (model, modelDiagnostics) = readModel(xml: bytes, path: contentsPath)
        diagnostics += modelDiagnostics
        return model.map(VersionRead.model) ?? .unreadable
    }

    // MARK: - Names

    private static let binaryPropertyListMagic = Array("bplist".utf8)
    private static let binaryFormatMessage =
        "unsupported pre-Xcode 4 binary model format (elements/layout); open the model in Xcode 4 or later and save it to convert it to XML"

    private static func baseName(_ path: String, dropping suffix: String) -> String {
        let last = path.split(separator: "/").last.map(String.init) ?? path
        return last.hasSuffix(suffix) && last.count > suffix.count ? String(last.dropLast(suffix.count)) : last
    }

    /// `Model` for `Model.xcdatamodel/contents`, `model` for `model.xml`.
    private static func versionName(ofContentsFile path: String) -> String {
        let components = path.split(separator: "/").map(String.init)
        if components.count >= 2, components[components.count - 1] == "contents",
           components[components.count - 2].hasSuffix(".xcdatamodel") {
            return String(components[components.count - 2].dropLast(".xcdatamodel".count))
        }
        let file = components.last ?? path
        if let dot = file.lastIndex(of: "."), dot != file.startIndex { return String(file[..<dot]) }
        return file
    }

    private static func list(_ names: [String]) -> String {
        names.map { "'\($0)'" }.joined(separator: ", ")
    }
}

extension Array where Element == Diagnostic {
    /// Diagnostics in file, line and column order (stable, so diagnostics at one place keep
    /// the order they were found in); those without a location come first.
    public func sortedByLocation() -> [Diagnostic] {
        enumerated().sorted { lhs, rhs in
            let left = lhs.element.location, right = rhs.element.location
            switch (left, right) {
            case (nil, nil): return lhs.offset < rhs.offset
            case (nil, _): return true
            case (_, nil): return false
            case (let left?, let right?):
                if left.file != right.file { return left.file < right.file }
                if left.line != right.line { return left.line < right.line }
                if left.column != right.column { return left.column < right.column }
                return lhs.offset < rhs.offset
            }
        }.map(\.element)
    }
}

/// The few file-system questions the reader asks.
enum FileSystem {
    enum Kind { case missing, file, directory }

    struct ReadError: Error, CustomStringConvertible {
        var description: String
    }

    static func kind(of path: String) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        return (info.st_mode & S_IFMT) == S_IFDIR ? .directory : .file
    }

    static func directoryEntries(_ path: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path)
    }

    /// The file's bytes; refuses files over `maxSize` before reading them.
    static func contents(of path: String, maxSize: Int) throws(ReadError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw ReadError(description: "cannot open the file") }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw ReadError(description: "cannot read the file") }
        let size = Int(info.st_size)
        if size > maxSize {
            throw ReadError(description: "the file is \(size) bytes, more than the limit of \(maxSize) bytes")
        }
        var bytes = [UInt8](repeating: 0, count: size)
        var count = 0
        while count < size {
            let received = bytes.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress! + count, size - count)
            }
            guard received > 0 else { break }
            count += received
        }
        guard count == size else { throw ReadError(description: "cannot read the file") }
        return bytes
    }
}
