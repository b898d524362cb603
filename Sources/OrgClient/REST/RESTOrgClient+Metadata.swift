extension RESTOrgClient {
    /// `GET /sobjects`.
    public func describeGlobal() async throws -> GlobalDescription {
        GlobalDescription(try await sendForJSON(OutgoingRequest(.get, "\(basePath)/sobjects")))
    }

    /// `GET /sobjects/{Type}/describe`.
    public func describe(_ objectType: String) async throws -> SObjectDescription {
        let type = try PathComponents.checkName(objectType, kind: "sObject")
        let request = OutgoingRequest(.get, "\(basePath)/sobjects/\(type)/describe")
        let value = try await sendForJSON(request)
        guard value.objectValue != nil else {
            throw OrgClientError.unexpectedShape("a describe that is not a JSON object", request: request)
        }
        return SObjectDescription(value)
    }

    /// `GET /sobjects/{Type}/describe`, the response text.
    public func describeJSON(_ objectType: String) async throws -> RawJSON {
        let type = try PathComponents.checkName(objectType, kind: "sObject")
        return RawJSON(try await send(OutgoingRequest(.get, "\(basePath)/sobjects/\(type)/describe")).body)
    }

    /// `GET /search?q=…`; returns the response text.
    public func search(_ sosl: String) async throws -> RawJSON {
        guard !sosl.isEmpty else { throw OrgClientError.invalidArgument("the SOSL search is empty") }
        let request = OutgoingRequest(.get, "\(basePath)/search", query: "q=" + PathComponents.encode(sosl))
        return RawJSON(try await send(request).body)
    }

    /// `GET /sobjects/{Type}` and the `Id`s of its `recentItems`, at most `limit` of them.
    public func recentlyViewedIDs(_ objectType: String, limit: Int?) async throws -> [String] {
        let type = try PathComponents.checkName(objectType, kind: "sObject")
        let request = OutgoingRequest(.get, "\(basePath)/sobjects/\(type)")
        let value = try await sendForJSON(request)
        guard let items = value["recentItems"]?.arrayValue else {
            throw OrgClientError.unexpectedShape("no 'recentItems'", request: request)
        }
        let ids = items.compactMap { $0["Id"]?.stringValue }
        return limit.map { Array(ids.prefix(max(0, $0))) } ?? ids
    }

    /// `GET /limits`: every entry that has `Max` and `Remaining`.
    public func limits() async throws -> [String: OrgLimit] {
        let request = OutgoingRequest(.get, "\(basePath)/limits")
        guard let entries = try await sendForJSON(request).objectValue else {
            throw OrgClientError.unexpectedShape("limits that are not a JSON object", request: request)
        }
        return entries.compactMapValues { entry in
            guard let max = entry["Max"]?.integerValue, let remaining = entry["Remaining"]?.integerValue else {
                return nil
            }
            return OrgLimit(max: Int(max), remaining: Int(remaining))
        }
    }

    /// `GET /` of the version: the org and user ids from its `identity` URL.
    public func identity() async throws -> OrgUserIdentity {
        let request = OutgoingRequest(.get, "\(basePath)/")
        let value = try await sendForJSON(request)
        guard let url = value["identity"]?.stringValue, let identity = OrgUserIdentity(identityURL: url) else {
            throw OrgClientError.unexpectedShape(
                "no 'identity' URL of the form …/id/{orgId}/{userId}",
                request: request
            )
        }
        return identity
    }

    /// `GET /services/oauth2/userinfo`: the org, user and username the access token belongs to;
    /// the one identity call that works with a bare access token.
    public func userInfo() async throws -> OrgUserInfo {
        let request = OutgoingRequest(.get, "/services/oauth2/userinfo")
        let value = try await sendForJSON(request)
        guard let organizationID = value["organization_id"]?.stringValue, let userID = value["user_id"]?.stringValue
        else {
            throw OrgClientError.unexpectedShape("user info without 'organization_id' or 'user_id'", request: request)
        }
        return OrgUserInfo(
            organizationID: organizationID,
            userID: userID,
            username: value["preferred_username"]?.stringValue
        )
    }
}
