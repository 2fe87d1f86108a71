import Testing
@testable import DataModel
@testable import DataModelReader

/// The on-disk forms: bundles with and without `.xccurrentversion`, folders, bare files and
/// pre-Xcode 4 binary versions (fixtures under `Fixtures/Bundles`).
@Suite("Model bundles and versions")
struct BundleTests {
    private func load(_ name: String, versionName: String? = nil) -> ModelReadResult {
        ModelLoader().load(at: ReaderTestPaths.fixture("Bundles/" + name), versionName: versionName)
    }

    @Test func currentVersionNamedByXCCurrentVersion() throws {
        let result = load("Named.xcdatamodeld")
        #expect(result.diagnostics.isEmpty)
        let bundle = try #require(result.bundle)
        #expect(bundle.name == "Named")
        #expect(bundle.versions.map(\.name) == ["Named", "Named 2", "Named 3"])
        #expect(bundle.currentVersionName == "Named 2")
        #expect(bundle.current.model.entities.map(\.name) == ["Two"])
        #expect(bundle.version(named: "Named 3")?.model.entities.map(\.name) == ["Three"])
    }

    @Test func currentOnlyReadsAndValidatesTheCurrentVersionAlone() throws {
        let path = ReaderTestPaths.fixture("Bundles/Named.xcdatamodeld")
        let result = ModelLoader().load(at: path, versions: .currentOnly)
        #expect(result.diagnostics.isEmpty)
        let bundle = try #require(result.bundle)
        #expect(bundle.versions.map(\.name) == ["Named 2"])
        #expect(bundle.current.model.entities.map(\.name) == ["Two"])
        let chosen = ModelLoader().load(at: path, versionName: "Named 3", versions: .currentOnly)
        #expect(try #require(chosen.bundle).versions.map(\.name) == ["Named 3"])
    }

    @Test func versionChosenExplicitly() throws {
        let result = load("Named.xcdatamodeld", versionName: "Named 3.xcdatamodel")
        #expect(try #require(result.bundle).current.model.entities.map(\.name) == ["Three"])
        let single = ModelLoader().load(at: ReaderTestPaths.fixture("AllFeatures.xcdatamodel"), versionName: "Other")
        #expect(single.diagnostics.errors.messages == [
            "there is no version 'Other': this is a single model version, 'AllFeatures'"
        ])
        #expect(ModelLoader().load(at: ReaderTestPaths.fixture("AllFeatures.xcdatamodel"), versionName: "AllFeatures").diagnostics.isEmpty)
        let missing = load("Named.xcdatamodeld", versionName: "Named 7")
        #expect(missing.bundle == nil)
        #expect(missing.diagnostics.errors.messages == [
            "the bundle has no version 'Named 7'; its versions are 'Named', 'Named 2', 'Named 3'"
        ])
    }

    @Test func severalVersionsWithoutANameUseTheLastInNaturalOrder() throws {
        let result = load("Unnamed.xcdatamodeld")
        let bundle = try #require(result.bundle)
        #expect(bundle.versions.map(\.name) == ["Model 2", "Model 9", "Model 10"])
        #expect(bundle.currentVersionName == "Model 10")
        #expect(bundle.current.model.entities.map(\.name) == ["EntityV10"])
        // Foreign files (EntityPositions.json, Parent+Mapping.h) are ignored.
        #expect(result.diagnostics.map(\.description) == [
            ReaderTestPaths.fixture("Bundles/Unnamed.xcdatamodeld")
                + ": warning: the bundle has 3 versions and no current version in .xccurrentversion; using 'Model 10', the last in natural order"
        ])
    }

    @Test func emptyDictionaryPrefersTheVersionNamedLikeTheBundle() throws {
        let result = load("NamedLikeBundle.xcdatamodeld")
        #expect(try #require(result.bundle).currentVersionName == "NamedLikeBundle")
        #expect(result.diagnostics.warnings.count == 1)
        #expect(!result.hasErrors)
    }

    @Test func singleVersionWithoutXCCurrentVersionOrWithAnEmptyOne() throws {
        for name in ["Single.xcdatamodeld", "ZeroByte.xcdatamodeld"] {
            let result = load(name)
            #expect(result.diagnostics.isEmpty, "\(name)")
            #expect(try #require(result.bundle).versions.count == 1)
        }
        #expect(try #require(load("Single.xcdatamodeld").bundle).currentVersionName == "Whatever 3")
    }

    @Test func unreadableXCCurrentVersionIsAWarning() throws {
        let result = load("BadPlist.xcdatamodeld")
        #expect(!result.hasErrors)
        #expect(try #require(result.bundle).currentVersionName == "BadPlist")
        #expect(result.diagnostics.warnings.contains {
            $0.message.hasPrefix("cannot read .xccurrentversion") && $0.location?.file.hasSuffix("BadPlist.xcdatamodeld/.xccurrentversion") == true
        })
    }

    @Test func bundleWithoutVersionsIsAnError() {
        let result = load("NoVersions.xcdatamodeld")
        #expect(result.bundle == nil)
        #expect(result.diagnostics.errors.messages == ["the model bundle holds no model versions (no .xcdatamodel folders)"])
    }

    @Test func currentVersionThatIsNotInTheBundleIsAnError() {
        let result = load("Dangling.xcdatamodeld")
        #expect(result.bundle == nil)
        let error = result.diagnostics.errors.first
        #expect(error?.message.hasPrefix(".xccurrentversion names 'Dangling 2.xcdatamodel', which is not in the bundle") == true)
        #expect(error?.location?.line == 6)
    }

    @Test func binaryVersionBesideXMLVersionsIsSkippedWithAWarning() throws {
        let result = load("Mixed.xcdatamodeld")
        #expect(!result.hasErrors)
        let bundle = try #require(result.bundle)
        #expect(bundle.versions.map(\.name) == ["Mixed 2"])
        #expect(bundle.current.model.entities.map(\.name) == ["Note"])
        let warning = try #require(result.diagnostics.warnings.first)
        #expect(warning.message.contains("version 'Mixed' skipped"))
        #expect(warning.message.contains("unsupported pre-Xcode 4 binary model format"))
        #expect(warning.location?.file.hasSuffix("Mixed.xcdatamodel/elements") == true)
    }

    @Test func binaryCurrentVersionOrFolderIsAnError() {
        for name in ["Binary.xcdatamodeld", "Old.xcdatamodel"] {
            let result = load(name)
            #expect(result.bundle == nil)
            #expect(result.diagnostics.errors.count == 1)
            #expect(result.diagnostics.errors.first?.message.contains("unsupported pre-Xcode 4 binary model format") == true)
        }
    }

    @Test func folderContentsFileAndLooseXMLFile() throws {
        let folder = try #require(ModelLoader().load(at: ReaderTestPaths.fixture("Seeds/Tweets.xcdatamodeld/Tweets.xcdatamodel")).bundle)
        #expect(folder.name == "Tweets")
        #expect(folder.currentVersionName == "Tweets")
        let contents = try #require(ModelLoader().load(at: ReaderTestPaths.fixture("Seeds/Tweets.xcdatamodeld/Tweets.xcdatamodel/contents")).bundle)
        #expect(contents.name == "Tweets")
        #expect(contents.current.model == folder.current.model)
        let loose = try #require(ModelLoader().load(at: ReaderTestPaths.fixture("Bundles/model.xml")).bundle)
        #expect(loose.name == "model")
        #expect(loose.current.model.entities.map(\.name) == ["Loose"])
        // A trailing slash, as shell completion adds, changes nothing.
        let slashed = ModelLoader().load(at: ReaderTestPaths.fixture("Seeds/Tweets.xcdatamodeld") + "/")
        #expect(slashed.bundle?.name == "Tweets")
    }

    @Test func missingPathAndNonModelFolder() {
        let missing = ModelLoader().load(at: ReaderTestPaths.fixture("Bundles/Nothing.xcdatamodeld"))
        #expect(missing.bundle == nil)
        #expect(missing.diagnostics.errors.messages == ["no such file or directory"])
        let folder = ModelLoader().load(at: ReaderTestPaths.fixture("Bundles"))
        #expect(folder.bundle == nil)
        #expect(folder.diagnostics.errors.first?.message.hasPrefix("not a Core Data model") == true)
    }

    @Test func requireBundleThrowsTheDiagnostics() throws {
        #expect(throws: DiagnosticError.self) { try load("NoVersions.xcdatamodeld").requireBundle() }
        #expect(try load("Named.xcdatamodeld").requireBundle().currentVersionName == "Named 2")
    }

    @Test(arguments: [
        (["Model 10", "Model 9", "Model 2"], ["Model 2", "Model 9", "Model 10"]),
        (["v1.10", "v1.9", "v1.10.1"], ["v1.9", "v1.10", "v1.10.1"]),
        (["b", "B 2", "a"], ["a", "b", "B 2"]),
        (["Model 010", "Model 9"], ["Model 9", "Model 010"]),
        (["Model", "Model 2", "Model 1"], ["Model", "Model 1", "Model 2"]),
    ])
    func naturalOrder(names: [String], sorted: [String]) {
        #expect(names.sorted(by: naturallyOrdered) == sorted)
    }
}
