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
        let user = userFields(version: version)
        let body: OrgJSONValue = [
            "id": .string(identityURL(baseURL)),
            "asserted_user": true,
            "user_id": .string(identity.userID),
            "organization_id": .string(identity.orgID),
            "username": user.username,
            "nick_name": user.alias,
            "display_name": user.name,
            "email": user.email,
            "email_verified": true,
            "first_name": user.firstName,
            "last_name": user.lastName,
            "timezone": "GMT",
            "active": true,
            "user_type": "STANDARD",
            "language": "en_US",
            "locale": "en_US",
            "utcOffset": 0,
            "is_app_installed": true,
            "urls": urls(baseURL),
        ]
        return .json(200, body)
    }

    /// `GET /services/oauth2/userinfo`: the OpenID Connect claims of the token's user.
    func userInfoResponse(baseURL: String, version: APIVersion) -> OrgHTTPResponse {
        let user = userFields(version: version)
        let body: OrgJSONValue = [
            "sub": .string(identityURL(baseURL)),
            "user_id": .string(identity.userID),
            "organization_id": .string(identity.orgID),
            "preferred_username": user.username,
            "nickname": user.alias,
            "name": user.name,
            "email": user.email,
            "email_verified": true,
            "given_name": user.firstName,
            "family_name": user.lastName,
            "zoneinfo": "GMT",
            "active": true,
            "user_type": "STANDARD",
            "language": "en_US",
            "locale": "en_US",
            "utcOffset": 0,
            "is_app_installed": true,
            "urls": urls(baseURL),
        ]
        return .json(200, body)
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
