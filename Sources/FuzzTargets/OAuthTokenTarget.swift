import Foundation
import LocalOrg

/// The local org's token endpoint (`POST /services/oauth2/token`) and its form decoder, in process.
///
/// Input: the first byte picks the org's settings (bit 0: a client secret is configured, bit 1: a
/// client ID is required); up to the first newline after it, the `Authorization` header (none when
/// empty); the rest, the form body. Checks, beyond "never crash":
/// - a token is issued only for a grant whose credentials match the configuration, judged by a
///   decoder written here independently of the server's;
/// - a decoded form, encoded again, decodes to the same pairs.
enum OAuthTokenTarget {
    static let clientSecret = "fuzz-secret"
    static let refreshToken = "fuzz-refresh"
    static let clientID = "fuzz-client"

    private static let servers: [LocalOrgServer?] = (0..<4).map { variant in
        let folder = FuzzWorkspace.folder.appendingPathComponent("oauth-token-\(variant)")
        guard let database = try? OrgDatabase(directory: folder, schema: .standard) else { return nil }
        var configuration = LocalOrgConfiguration(refreshToken: refreshToken)
        if variant & 1 != 0 { configuration.clientSecret = clientSecret }
        if variant & 2 != 0 { configuration.clientID = clientID }
        return try? LocalOrgServer(configuration: configuration, database: database)
    }

    static func run(_ bytes: [UInt8]) async {
        guard let variant = bytes.first, let server = servers[Int(variant & 3)] else { return }
        let rest = bytes.dropFirst()
        let newline = rest.firstIndex(of: UInt8(ascii: "\n")) ?? rest.endIndex
        let authorization = String(decoding: rest[..<newline], as: UTF8.self)
        let body = newline < rest.endIndex ? Data(rest[(newline + 1)...]) : Data()
        let text = String(decoding: body, as: UTF8.self)

        checkRoundTrip(text)

        let reply = server.respondInProcess(
            method: "POST",
            target: "/services/oauth2/token",
            headers: authorization.isEmpty ? [] : [(name: "Authorization", value: authorization)],
            body: body
        )
        guard reply.status == 200 else { return }
        let secretConfigured = variant & 1 != 0
        let idRequired = variant & 2 != 0
        let form = independentPairs(text)
        func first(_ name: String) -> String? { form.first { $0.name == name }?.value }
        switch first("grant_type") {
        case "refresh_token":
            guard first("refresh_token") == refreshToken, !idRequired || first("client_id") == clientID else {
                fatalError("token issued for a refresh grant without the refresh token: \(text.debugDescription)")
            }
        case "client_credentials":
            let (id, secret) = basicCredentials(authorization) ?? (first("client_id"), first("client_secret"))
            guard secretConfigured, secret == clientSecret, !idRequired || id == clientID else {
                fatalError(
                    "token issued for client credentials that do not match: \(authorization.debugDescription) "
                        + text.debugDescription
                )
            }
        default:
            fatalError("token issued for grant \(first("grant_type")?.debugDescription ?? "nil") (JWT is off)")
        }
    }

    /// Decoded pairs, encoded with every byte outside the unreserved set escaped, decode the same.
    private static func checkRoundTrip(_ text: String) {
        let pairs = FormDecoding.pairs(text)
        let encoded = pairs.map { encode($0.name) + "=" + encode($0.value) }.joined(separator: "&")
        let again = FormDecoding.pairs(encoded)
        guard again.map(\.name) == pairs.map(\.name), again.map(\.value) == pairs.map(\.value) else {
            fatalError("form does not round-trip: \(text.debugDescription) -> \(encoded.debugDescription)")
        }
    }

    private static func encode(_ text: String) -> String {
        var output = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                output.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "):
                output += "+"
            default:
                output += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return output
    }

    /// Form pairs by Foundation's percent decoding, not the server's (an invalid escape keeps the
    /// raw text), so a disagreement between the two cannot hide a wrongly issued token.
    private static func independentPairs(_ text: String) -> [(name: String, value: String)] {
        func decode(_ part: Substring) -> String {
            let spaced = part.replacingOccurrences(of: "+", with: " ")
            return spaced.removingPercentEncoding ?? spaced
        }
        return text.split(separator: "&").map { pair in
            guard let equals = pair.firstIndex(of: "=") else { return (decode(pair), "") }
            return (decode(pair[..<equals]), decode(pair[pair.index(after: equals)...]))
        }
    }

    /// The id and secret of an HTTP Basic header, each percent-decoded.
    private static func basicCredentials(_ header: String) -> (String?, String?)? {
        guard header.lowercased().hasPrefix("basic "),
            let data = Data(base64Encoded: String(header.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
            let text = String(data: data, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else { return nil }
        let id = String(text[..<colon]).replacingOccurrences(of: "+", with: " ")
        let secret = String(text[text.index(after: colon)...]).replacingOccurrences(of: "+", with: " ")
        return (id.removingPercentEncoding ?? id, secret.removingPercentEncoding ?? secret)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: Swift.max(0, width - count)) + self
    }
}
