import Foundation

/// Decodes the project file (`syncrun.yaml` / `syncrun.json`) from the positioned tree.
struct ProjectFileDecoder {
    let context: DecodingContext
    /// The folder relative paths are resolved against.
    let folder: URL

    /// Keys that would hold a secret inline, and the key to use instead.
    private static let secretKeys: [String: String] = [
        "accessToken": "accessTokenEnv", "token": "accessTokenEnv", "refreshToken": "authUrlFile or authUrlEnv",
        "authUrl": "authUrlFile or authUrlEnv", "sfdxAuthUrl": "authUrlFile or authUrlEnv",
        "clientSecret": "secretFile", "secret": "secretFile", "password": "a JWT key file or client credentials",
        "privateKey": "keyFile",
    ]

    private static let forms = ["local", "url", "sfAlias", "authUrlFile", "authUrlEnv", "jwt", "clientCredentials"]

    func decode(_ root: ConfigNode, url: URL) -> ProjectFile? {
        guard var reader = ObjectReader(root, path: .root, context: context) else { return nil }
        _ = reader.value("$schema")
        let defaultOrg = reader.nonEmptyString("defaultOrg")
        let store = reader.nonEmptyString("store").map(resolve)
        var orgs: [(name: String, org: ProjectOrg)] = []
        var pubsubURLs: [String: String] = [:]
        if var orgsReader = reader.object("orgs") {
            for name in orgsReader.keys {
                guard let node = orgsReader.value(name) else { continue }
                if let (org, pubsubURL) = decodeOrg(node, path: ConfigPath.root.appending("orgs").appending(name)) {
                    orgs.append((name, org))
                    pubsubURLs[name] = pubsubURL
                }
            }
        }
        _ = reader.extraKeys(known: ["defaultOrg", "store", "orgs"])
        return ProjectFile(url: url, defaultOrg: defaultOrg, store: store, orgs: orgs, pubsubURLs: pubsubURLs)
    }

    /// An org entry: its form, and its `pubsubUrl` when it has one.
    private func decodeOrg(_ node: ConfigNode, path: ConfigPath) -> (ProjectOrg, String?)? {
        guard var reader = ObjectReader(node, path: path, context: context) else { return nil }
        guard checkSecrets(reader) else { return nil }
        let present = Self.forms.filter { reader.contains($0) }
        let form: String
        if present.count == 1 {
            form = present[0]
        } else if present.isEmpty {
            context.error(
                .invalidOrg,
                at: node.position,
                path: path,
                "an org needs one of 'local', 'url' (with 'accessTokenEnv'), 'sfAlias', 'authUrlFile', 'authUrlEnv', "
                    + "'jwt' or 'clientCredentials'"
            )
            return nil
        } else {
            context.error(
                .invalidOrg,
                at: reader.keyPosition(of: present[1]),
                path: path.appending(present[1]),
                "an org has one form; '\(present[0])' and '\(present[1])' exclude each other"
            )
            return nil
        }
        let org: ProjectOrg?
        switch form {
        case "local":
            org = decodeLocal(&reader)
        case "url":
            let url = reader.nonEmptyString("url", required: true)
            let env = reader.nonEmptyString("accessTokenEnv", required: true)
            org = url.flatMap { url in env.map { ProjectOrg.url(url, accessTokenEnv: $0) } }
        case "sfAlias":
            org = reader.nonEmptyString("sfAlias", required: true).map(ProjectOrg.sfAlias)
        case "authUrlFile":
            org = reader.nonEmptyString("authUrlFile", required: true).map { .authURLFile(resolve($0)) }
        case "authUrlEnv":
            org = reader.nonEmptyString("authUrlEnv", required: true).map(ProjectOrg.authURLEnv)
        case "jwt":
            org = decodeJWT(&reader)
        default:
            org = decodeClientCredentials(&reader)
        }
        let pubsubURL = reader.nonEmptyString("pubsubUrl")
        _ = reader.extraKeys(known: Self.forms + ["accessTokenEnv", "pubsubUrl"])
        return org.map { ($0, pubsubURL) }
    }

    private func decodeLocal(_ reader: inout ObjectReader) -> ProjectOrg? {
        guard var local = reader.object("local", required: true), checkSecrets(local) else { return nil }
        let directory = local.nonEmptyString("dir", required: true)
        let seed = local.stringArray("seed") ?? []
        let schema = local.nonEmptyString("schema")
        _ = local.extraKeys(known: ["dir", "seed", "schema"])
        guard let directory else { return nil }
        return .local(directory: resolve(directory), seed: seed.map(resolve), schema: schema.map(resolve))
    }

    private func decodeJWT(_ reader: inout ObjectReader) -> ProjectOrg? {
        guard var jwt = reader.object("jwt", required: true), checkSecrets(jwt) else { return nil }
        let keyFile = jwt.nonEmptyString("keyFile", required: true)
        let clientID = jwt.nonEmptyString("clientId", required: true)
        let username = jwt.nonEmptyString("username", required: true)
        let loginURL = jwt.nonEmptyString("loginUrl")
        _ = jwt.extraKeys(known: ["keyFile", "clientId", "username", "loginUrl"])
        guard let keyFile, let clientID, let username else { return nil }
        return .jwt(keyFile: resolve(keyFile), clientID: clientID, username: username, loginURL: loginURL)
    }

    private func decodeClientCredentials(_ reader: inout ObjectReader) -> ProjectOrg? {
        guard var credentials = reader.object("clientCredentials", required: true), checkSecrets(credentials) else {
            return nil
        }
        let clientID = credentials.nonEmptyString("clientId", required: true)
        let secretFile = credentials.nonEmptyString("secretFile", required: true)
        let loginURL = credentials.nonEmptyString("loginUrl", required: true)
        _ = credentials.extraKeys(known: ["clientId", "secretFile", "loginUrl"])
        guard let clientID, let secretFile, let loginURL else { return nil }
        return .clientCredentials(clientID: clientID, secretFile: resolve(secretFile), loginURL: loginURL)
    }

    /// Reports each member whose key names a secret (`accessToken`, `clientSecret`, …); returns
    /// whether there was none. Values shaped like credentials (an auth URL, a token) are found,
    /// masked and reported by the loader for every config file (`CredentialCheck`).
    private func checkSecrets(_ reader: ObjectReader) -> Bool {
        guard case .object(let members) = reader.node.value else { return true }
        var clean = true
        for member in members {
            let path = reader.path.appending(member.key)
            if let instead = Self.secretKeys[member.key] {
                context.error(
                    .inlineSecret,
                    at: member.keyPosition,
                    path: path,
                    "'\(member.key)' would hold a secret in the project file; secrets go in a file or an "
                        + "environment variable: use \(instead)"
                )
                clean = false
            }
        }
        return clean
    }

    private func resolve(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        return folder.appendingPathComponent(path).standardizedFileURL.path
    }
}
