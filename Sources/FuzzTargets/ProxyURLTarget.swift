import Foundation
import OrgClient

/// The proxy URL reader of `ProxySettings` (`--proxy`, `HTTPS_PROXY`, `HTTP_PROXY`, `ALL_PROXY`)
/// and its `NO_PROXY` matching.
///
/// Input: up to the first newline, a proxy URL; up to the second, a `NO_PROXY` value; the rest, the
/// URL of a request. Checks, beyond "never crash":
/// - a proxy the reader takes has a host (no space, no `@`) and a port 1-65535, and the value
///   handed to a child process (`HTTPS_PROXY`, credentials percent-encoded) reads back as the same
///   proxy;
/// - the proxy's password never appears in its description, nor the credentials of a refused URL in
///   the error's message (the defence of `ProxySettings` against printing a secret);
/// - `NO_PROXY` entries are trimmed and never empty, and `*` sends every request direct.
enum ProxyURLTarget {
    static func run(_ bytes: [UInt8]) async {
        let lines = bytes.split(separator: UInt8(ascii: "\n"), maxSplits: 2, omittingEmptySubsequences: false)
        let text = String(decoding: lines[0], as: UTF8.self)
        let noProxy = lines.count > 1 ? String(decoding: lines[1], as: UTF8.self) : ""
        let requestURL = lines.count > 2 ? String(decoding: lines[2], as: UTF8.self) : ""

        let bypass = ProxySettings.bypassList(noProxy)
        for entry in bypass {
            precondition(!entry.isEmpty && entry == entry.trimmingCharacters(in: .whitespaces), "an untrimmed entry")
        }

        let server: ProxySettings.Server
        do {
            server = try ProxySettings.Server(url: text)
        } catch let error as OrgClientError {
            if let credentials = credentials(of: text) {
                precondition(
                    !error.message.contains(credentials + "@"),
                    "a refused proxy URL's message shows its login"
                )
            }
            return
        } catch {
            preconditionFailure("the proxy URL reader threw something other than OrgClientError")
        }
        check(server)

        let settings = ProxySettings(http: server, https: server, bypass: bypass)
        let chosen = settings.server(for: requestURL)
        if bypass.contains("*") { precondition(chosen == nil, "NO_PROXY=* let a request through the proxy") }
        if let chosen { precondition(chosen == server, "a request went through a proxy not configured") }
        _ = try? ProxySettings.resolve(flag: text, environment: ["NO_PROXY": noProxy])
    }

    private static func check(_ server: ProxySettings.Server) {
        precondition((1...65535).contains(server.port), "a proxy port outside 1-65535")
        precondition(
            !server.host.isEmpty && !server.host.contains(" ") && !server.host.contains("@"),
            "a proxy without a usable host"
        )
        // Shown, the password would stand as `:PASSWORD@` (the user name cannot end that way
        // unless it holds an `@` itself; a password of `***` is the mask itself).
        if let password = server.password, !password.isEmpty, password != "***",
            !(server.username ?? "").contains("@")
        {
            precondition(!server.description.contains(":\(password)@"), "a proxy's description shows its password")
        }
        let child = ProxySettings(http: nil, https: server).environmentVariables["HTTPS_PROXY"] ?? ""
        guard let again = try? ProxySettings.Server(url: child) else {
            preconditionFailure("the proxy handed to a child process does not read back")
        }
        precondition(again == server, "the proxy handed to a child process reads back as another")
    }

    /// The user information of `text` as the reader takes it (after the scheme, before the last
    /// `@`), when there is some and the rest of `text` does not hold it followed by `@`: shown,
    /// it would stand as `CREDENTIALS@` (messages show `***@`).
    private static func credentials(of text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let at = trimmed.lastIndex(of: "@") else { return nil }
        let start = trimmed.range(of: "://").map(\.upperBound) ?? trimmed.startIndex
        guard start <= at else { return nil }
        let credentials = String(trimmed[start..<at])
        let rest = String(trimmed[..<start]) + String(trimmed[at...])
        guard !credentials.isEmpty, !rest.contains(credentials + "@") else { return nil }
        return credentials
    }
}
