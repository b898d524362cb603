import Foundation
import OrgClient
import SyncConfig

extension OrgAccessError {
    static func unreadableSecretFile(_ path: String, purpose: String, underlying: any Error) -> OrgAccessError {
        OrgAccessError(
            code: .unresolvable,
            message: "cannot read \(purpose) from '\(path)': \(underlying.localizedDescription); check the path "
                + "and that the file is readable",
            underlying: underlying
        )
    }

    static func emptySecret(describing source: SecretSource, purpose: String) -> OrgAccessError {
        let fix: String
        switch source {
        case .file(let path): fix = "put it in '\(path)'"
        case .environment(let name): fix = "set \(name)"
        case .value: fix = "pass a non-empty value"
        }
        return OrgAccessError(code: .unresolvable, message: "\(purpose) in \(source) is empty; \(fix)")
    }

    static func invalidAuthURL(_ problem: String) -> OrgAccessError {
        OrgAccessError(
            code: .unresolvable,
            message: "the SFDX auth URL is not valid: \(problem); it must read "
                + "force://CLIENT_ID:CLIENT_SECRET:REFRESH_TOKEN@HOST (print one with "
                + "'sf org auth show-sfdx-auth-url -o ALIAS --json')"
        )
    }

    static func invalidJWTKey(_ path: String) -> OrgAccessError {
        OrgAccessError(
            code: .unresolvable,
            message: "'\(path)' holds no RSA private key in PEM form; give the key whose certificate the connected "
                + "app holds (-----BEGIN PRIVATE KEY----- or -----BEGIN RSA PRIVATE KEY-----)"
        )
    }

    static func insecureLoginURL(_ url: String) -> OrgAccessError {
        OrgAccessError(
            code: .unresolvable,
            message: "the login URL '\(url)' uses http:// on a host that is not loopback; use https:// "
                + "(http:// is only allowed for 127.0.0.1, ::1 and localhost)"
        )
    }

    static func invalidURL(_ url: String, what: String, underlying: OrgClientError) -> OrgAccessError {
        OrgAccessError(code: .unresolvable, message: "\(what) '\(url)': \(underlying.message)", underlying: underlying)
    }

    static func salesforceCLIMissing(_ executable: String) -> OrgAccessError {
        let name = executable.contains("/") ? "'\(executable)' (from SYNCRUN_SF)" : "'\(executable)' on PATH"
        return OrgAccessError(
            code: .unresolvable,
            message: "cannot run the Salesforce CLI: no executable \(name); install it "
                + "(https://developer.salesforce.com/tools/salesforcecli), set SYNCRUN_SF to its path, or name the "
                + "org another way (local:DIR, an https:// URL with --access-token, --sfdx-auth-url-file, JWT flags)"
        )
    }

    static func salesforceCLIFailed(
        _ alias: String,
        command: String,
        name: String?,
        message: String?,
        status: Int32,
        isUnknownCommand: Bool
    ) -> OrgAccessError {
        let said = message.map { ": \($0)" } ?? " (exit status \(status))"
        let unknownOrg =
            name.map {
                ["NamedOrgNotFoundError", "NoAuthInfoFound", "NoOrgFound", "AuthInfoNotFound"]
                    .contains($0) || $0.hasSuffix("NotFoundError")
            } ?? false
        var error: OrgAccessError
        if unknownOrg {
            error = OrgAccessError(
                code: .unresolvable,
                message: "'\(alias)' is not an org the Salesforce CLI knows\(said); log in with "
                    + "'sf org login web -o \(alias)' ('sf org list' shows your orgs), or name an org of the "
                    + "project file"
            )
        } else if isUnknownCommand {
            error = OrgAccessError(
                code: .unresolvable,
                message: "'sf \(command)' is not a command of this Salesforce CLI\(said); update it with "
                    + "'sf update'"
            )
        } else {
            error = OrgAccessError(
                code: .refused,
                message: "the Salesforce CLI could not log in to '\(alias)' ('sf \(command)' failed\(said)); log in "
                    + "again with 'sf org login web -o \(alias)'"
            )
        }
        error.isUnknownCommand = isUnknownCommand
        return error
    }

    static func salesforceCLIShape(_ alias: String, command: String, missing: String) -> OrgAccessError {
        OrgAccessError(
            code: .unresolvable,
            message: "'sf \(command) -o \(alias) --json' printed no '\(missing)'; check that 'sf' is the "
                + "Salesforce CLI (sf 2 or later) and update it with 'sf update'"
        )
    }

    static func salesforceCLIRedacted(_ alias: String) -> OrgAccessError {
        OrgAccessError(
            code: .unresolvable,
            message: "the Salesforce CLI printed no usable access token for '\(alias)' (only a redacted one); "
                + "update it with 'sf update' so that 'sf org auth show-access-token' exists"
        )
    }

    static func refused(_ definition: OrgDefinition, underlying: OrgClientError) -> OrgAccessError {
        OrgAccessError(
            code: .refused,
            message: "cannot log in to '\(definition.name)' (\(definition.source.label)): \(underlying.message); "
                + definition.fix,
            underlying: underlying
        )
    }

    /// The local org in `directory` cannot be opened or served (unavailable).
    public static func localOrg(_ directory: String, _ message: String) -> OrgAccessError {
        OrgAccessError(code: .unavailable, message: "cannot open the local org in '\(directory)': \(message)")
    }
}

extension OrgAccessError {
    static func emptyLocalDirectory() -> OrgAccessError {
        OrgAccessError(code: .unresolvable, message: "--org local:DIR needs a directory")
    }

    static func emptyOrg() -> OrgAccessError {
        OrgAccessError(
            code: .unresolvable,
            message: "--org is empty; name an org (local:DIR, a URL, a project org or an sf alias)"
        )
    }

    static func credentialInOrg(_ masked: String, kind: CredentialMask.Kind, option: String) -> OrgAccessError {
        let fix =
            kind == .urlUserInfo
            ? "give the instance URL without a user name or password (https://HOST) and the token with "
                + "--access-token or SF_ACCESS_TOKEN; a Salesforce org takes no password in a URL"
            : "put it in a file or an environment variable (--sfdx-auth-url-file, SFDX_AUTH_URL, --access-token, "
                + "SF_ACCESS_TOKEN) or name the org (a project org, an sf alias)"
        return OrgAccessError(
            code: .unresolvable,
            message: "\(option) '\(masked)' holds \(kind.phrase) (masked here), which syncrun never prints or sends "
                + "from there; \(fix)"
        )
    }

    static func missingAccessToken(_ url: String) -> OrgAccessError {
        OrgAccessError(
            code: .unresolvable,
            message: "no access token for '\(url)': pass --access-token or set SF_ACCESS_TOKEN, or name the org by "
                + "its sf alias (--org ALIAS) so that syncrun can renew the token"
        )
    }

    static func noOrg(projectFile: String?) -> OrgAccessError {
        let project = projectFile.map { "'defaultOrg' in '\($0)'" } ?? "'defaultOrg' in syncrun.yaml"
        return OrgAccessError(
            code: .unresolvable,
            message: "no org given: pass --org ORG, or set one of SF_TARGET_ORG, SFDX_AUTH_URL, \(project), "
                + "or sf's target-org ('sf config set target-org ALIAS')"
        )
    }
}
