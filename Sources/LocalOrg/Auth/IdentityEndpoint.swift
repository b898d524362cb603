import Foundation
import JSONCore

/// The identity service of the local org: the identity URL `GET /id/{orgId}/{userId}` that token
/// responses name in `id`, and OpenID Connect's `GET /services/oauth2/userinfo`.
///
/// Both need a valid bearer token, as on a real org, and answer with the shapes Salesforce
/// documents (`user_id`, `organization_id`, `username` / `preferred_username`, `urls`, …). Neither
/// counts against the API request allocation.
struct IdentityEndpoint: Sendable {
    /// The org and user the sessions belong to.
    let identity: OrgIdentity
    /// The org's data, for the user's name and email.
    let database: OrgDatabase

    /// `GET /id/{orgId}/{userId}`: 404 unless the ids are the org's and its user's.
    func identityResponse(orgID: String, userID: String, baseURL: String, version: APIVersion) -> OrgHTTPResponse {
        guard Self.sameID(orgID, identity.orgID), Self.sameID(userID, identity.userID) else {
            return .error(.resourceNotFound, version: version)
        }
        let head: [(String, OrgJSONValue)] = [("id", .string(identityURL(baseURL))), ("asserted_user", true)]
        let claims = userClaims(baseURL: baseURL, version: version).map { ($0.identityName, $0.value) }
        return .json(200, .object(OrgJSONObject(head + claims)))
    }

    /// `GET /services/oauth2/userinfo`: the OpenID Connect claims of the token's user.
    func userInfoResponse(baseURL: String, version: APIVersion) -> OrgHTTPResponse {
        let claims = userClaims(baseURL: baseURL, version: version).map { ($0.openIDName, $0.value) }
        return .json(200, .object(OrgJSONObject([("sub", .string(identityURL(baseURL)))] + claims)))
    }

    /// What both answers say of the user and the org, in their order: each claim under the
    /// identity URL's name and under OpenID Connect's.
    private func userClaims(
        baseURL: String,
        version: APIVersion
    ) -> [(identityName: String, openIDName: String, value: OrgJSONValue)] {
        let user = userFields(version: version)
        return [
            ("user_id", "user_id", .string(identity.userID)),
            ("organization_id", "organization_id", .string(identity.orgID)),
            ("username", "preferred_username", user.username),
            ("nick_name", "nickname", user.alias),
            ("display_name", "name", user.name),
            ("email", "email", user.email),
            ("email_verified", "email_verified", true),
            ("first_name", "given_name", user.firstName),
            ("last_name", "family_name", user.lastName),
            ("timezone", "zoneinfo", "GMT"),
            ("active", "active", true),
            ("user_type", "user_type", "STANDARD"),
            ("language", "language", "en_US"),
            ("locale", "locale", "en_US"),
            ("utcOffset", "utcOffset", 0),
            ("is_app_installed", "is_app_installed", true),
            ("urls", "urls", urls(baseURL)),
        ]
    }

    private func identityURL(_ baseURL: String) -> String {
        "\(baseURL)/id/\(identity.orgID)/\(identity.userID)"
    }

    private func urls(_ baseURL: String) -> OrgJSONValue {
        let data = "\(baseURL)/services/data/v{version}/"
        return [
            "rest": .string(data),
            "sobjects": .string(data + "sobjects/"),
            "query": .string(data + "query/"),
            "limits": .string(data + "limits/"),
            "profile": .string("\(baseURL)/\(identity.userID)"),
        ]
    }

    private struct UserFields {
        var username: OrgJSONValue = .null
        var alias: OrgJSONValue = .null
        var name: OrgJSONValue = .null
        var email: OrgJSONValue = .null
        var firstName: OrgJSONValue = .null
        var lastName: OrgJSONValue = .null
    }

    private func userFields(version: APIVersion) -> UserFields {
        let fields = ["Username", "Alias", "Name", "Email", "FirstName", "LastName"]
        guard
            let data = try? database.retrieve(
                "User",
                id: identity.userID,
                fields: fields,
                apiVersion: version.description
            ),
            let record = try? OrgJSONValue.decode(data).objectValue
        else { return UserFields() }
        let first = record["FirstName"] ?? .null
        let last = record["LastName"] ?? .null
        let name: OrgJSONValue =
            record["Name"]
            ?? .string([first.stringValue, last.stringValue].compactMap { $0 }.joined(separator: " "))
        return UserFields(
            username: record["Username"] ?? .null,
            alias: record["Alias"] ?? .null,
            name: name,
            email: record["Email"] ?? .null,
            firstName: first,
            lastName: last
        )
    }

    /// 15- and 18-character forms of one id compare equal.
    private static func sameID(_ given: String, _ own: String) -> Bool {
        SalesforceID.same(given, own)
    }
}
