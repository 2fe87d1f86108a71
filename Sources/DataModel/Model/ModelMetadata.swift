/// The attributes of the `<model>` element: tool versions and flags, kept for round trips.
public struct ModelMetadata: Hashable, Sendable, Codable {
    public var name: String?
    public var userDefinedModelVersionIdentifier: String?
    public var type: String?
    public var documentVersion: String?
    public var lastSavedToolsVersion: String?
    public var systemVersion: String?
    public var minimumToolsVersion: String?
    public var sourceLanguage: String?
    public var macOSVersion: String?
    public var iOSVersion: String?
    public var usedWithCloudKit: Bool
    public var usedWithSwiftData: Bool

    public init(
        name: String? = nil,
        userDefinedModelVersionIdentifier: String? = nil,
        type: String? = nil,
        documentVersion: String? = nil,
        lastSavedToolsVersion: String? = nil,
        systemVersion: String? = nil,
        minimumToolsVersion: String? = nil,
        sourceLanguage: String? = nil,
        macOSVersion: String? = nil,
        iOSVersion: String? = nil,
        usedWithCloudKit: Bool = false,
        usedWithSwiftData: Bool = false
    ) {
        self.name = name
        self.userDefinedModelVersionIdentifier = userDefinedModelVersionIdentifier
        self.type = type
        self.documentVersion = documentVersion
        self.lastSavedToolsVersion = lastSavedToolsVersion
        self.systemVersion = systemVersion
        self.minimumToolsVersion = minimumToolsVersion
        self.sourceLanguage = sourceLanguage
        self.macOSVersion = macOSVersion
        self.iOSVersion = iOSVersion
        self.usedWithCloudKit = usedWithCloudKit
        self.usedWithSwiftData = usedWithSwiftData
    }
}
