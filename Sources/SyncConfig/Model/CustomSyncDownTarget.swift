import JSONCore

/// A `custom` sync down target, implemented by a plug-in registered under its class name.
///
/// Keys:
/// - `type` (string, `"custom"`).
/// - `iOSImpl`, `androidImpl` (strings; at least one required): the plug-in's class names.
/// - `idFieldName` (string, default `"Id"`), `modificationDateFieldName` (string, default
///   `"LastModifiedDate"`).
/// - Any other key belongs to the plug-in and is kept in ``extraKeys`` without a warning.
public struct CustomSyncDownTarget: Sendable, Hashable, TargetCommonKeys {
    /// `iOSImpl`, when given.
    public var iOSImpl: String?
    /// `androidImpl`, when given.
    public var androidImpl: String?
    /// The field holding the server id (`idFieldName`).
    public var idFieldName: String
    /// The field holding the server modification date (`modificationDateFieldName`).
    public var modificationDateFieldName: String
    /// The plug-in's own keys, verbatim.
    public var extraKeys: [String: JSONValue]

    /// Creates a custom target.
    public init(
        iOSImpl: String?,
        androidImpl: String?,
        idFieldName: String = "Id",
        modificationDateFieldName: String = "LastModifiedDate",
        extraKeys: [String: JSONValue] = [:]
    ) {
        self.iOSImpl = iOSImpl
        self.androidImpl = androidImpl
        self.idFieldName = idFieldName
        self.modificationDateFieldName = modificationDateFieldName
        self.extraKeys = extraKeys
    }

    /// The name the plug-in is registered under: `iOSImpl`, else `androidImpl`.
    public var implName: String { iOSImpl ?? androidImpl ?? "" }
}
