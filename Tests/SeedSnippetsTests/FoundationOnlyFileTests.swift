// This file imports Foundation alone, as SugarRecord's `Request.swift` and
// `VersionProvider.swift` do: the names Foundation has on Apple platforms reach it through the
// file the build plugin generates for a target on CoreData, and CoreData's extensions of
// Foundation's classes reach every file of a module that imports CoreData in one of them.
import Foundation
import Testing

final class FoundationOnlyVersionProvider: NSObject {}

@Suite struct FoundationOnlyFileTests {
    @Test func selectorNamesASortDescriptorsComparison() {
        let selector = Selector("localizedStandardCompare:")
        #expect(selector.description == "localizedStandardCompare:")
        // SugarRecord's `sorted(with:ascending:selector:)`.
        let descriptor = NSSortDescriptor(key: "name", ascending: true, selector: selector)
        #expect(descriptor.key == "name" && descriptor.ascending)
    }

    @Test func urlLoadingSystemIsThere() throws {
        let url = try #require(URL(string: "https://api.github.com/repos/carambalabs/sugarrecord/releases"))
        let request: URLRequest = URLRequest(url: url)
        #expect(request.url == url && request.httpMethod == "GET")
        let session = URLSession(configuration: URLSessionConfiguration.default)
        session.finishTasksAndInvalidate()
    }

    @Test func classForCoderIsTheClass() {
        #expect(ObjectIdentifier(FoundationOnlyVersionProvider.classForCoder()) == ObjectIdentifier(FoundationOnlyVersionProvider.self))
        #expect(ObjectIdentifier(NSNumber.classForCoder()) == ObjectIdentifier(NSNumber.self))
        // The bundle of a class of this module: the test bundle, as on Apple platforms.
        #expect(Bundle(for: FoundationOnlyVersionProvider.classForCoder()).bundlePath.isEmpty == false)
    }
}
