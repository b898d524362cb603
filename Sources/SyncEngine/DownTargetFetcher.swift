import OrgClient
import SoupStore

/// Where a page of records is saved: a soup and the fields sync down matches and dates them by.
struct PageDestination: Sendable, Hashable {
    /// The soup.
    var soupName: String
    /// The field holding the server id (the upsert key).
    var idFieldName: String
    /// The field holding the server modification date (the watermark's source).
    var modificationDateFieldName: String
}

/// One page of server records, as the org sent it: a query response (`{"records": […]}`) or a
/// JSON array of records. Records are never parsed in Swift; the store splits the text.
struct DownPage: Sendable {
    /// The page text.
    var json: String
    /// The number of records the whole fetch expects (`totalSize`, §4.7). Targets that learn it
    /// page by page (briefcase) send the total known so far.
    var totalSize: Int
    /// Where the page goes when not to the fetcher's own soup (briefcase: each object type has
    /// its soup).
    var destination: PageDestination? = nil
    /// The page's latest modification date (ms, -1 for none) when the fetcher computes it
    /// (parent_children: parents and children); `nil` to take the latest of the records saved.
    var latestModification: Int64? = nil
}

/// What ghost cleaning learns from the org for one page.
enum RemoteIDPage: Sendable {
    /// A page of records (ids only) as the org sent it.
    case records(String)
    /// Ids confirmed to exist.
    case ids([String])
}

/// Fetches a sync down target's records page by page, and its remote ids for ghost cleaning.
///
/// One conformer per supported target kind. Fetchers hold no records: each page goes to `body`,
/// which writes it to the store before the next page is handed over. Fetchers read query results
/// through `OrgClient.queryPages`, which requests the next page while `body` writes the current
/// one, so at most two pages are in memory.
protocol DownTargetFetcher: Sendable {
    /// The soup records are saved into.
    var soupName: String { get }
    /// The field holding the server id.
    var idFieldName: String { get }
    /// The field holding the modification date.
    var modificationDateFieldName: String { get }
    /// Whether records arrive ordered by the modification date, ascending, so the watermark can
    /// be saved after every page (§4.3).
    var isSortedByModification: Bool { get }
    /// Whether a watermark restricts what is fetched (§5).
    var isIncremental: Bool { get }
    /// Every soup the target saves into, with its id and modification fields: the soup of
    /// ``soupName`` by default; one per object type for briefcase. Ghost cleaning and the soup
    /// checks go over all of them.
    var destinations: [PageDestination] { get }

    /// Fetches every page modified at or after `maxTimeStamp` (everything when it is ≤ 0), calling
    /// `body` per page; `body` returns `false` to stop before the next page.
    func fetch(
        since maxTimeStamp: Int64,
        org: any OrgClient,
        store: SoupStore,
        body: (DownPage) async throws -> Bool
    ) async throws

    /// Streams the ids the org returns for this target now (no watermark), calling `body` per
    /// page; `body` returns `false` to stop.
    ///
    /// Targets that check existence instead of listing every id read this sync's candidates
    /// (clean records it fetched) from `store`, a page at a time.
    func remoteIDs(
        org: any OrgClient,
        store: SoupStore,
        syncID: Int64,
        body: (RemoteIDPage) async throws -> Bool
    ) async throws
}

extension DownTargetFetcher {
    var destinations: [PageDestination] {
        [
            PageDestination(
                soupName: soupName,
                idFieldName: idFieldName,
                modificationDateFieldName: modificationDateFieldName
            )
        ]
    }

    /// Where `page` is saved.
    func destination(of page: DownPage) -> PageDestination {
        page.destination
            ?? PageDestination(
                soupName: soupName,
                idFieldName: idFieldName,
                modificationDateFieldName: modificationDateFieldName
            )
    }

    /// Existence check (§6 for mru and refresh): `SELECT Id FROM type WHERE Id IN (…)` per slice
    /// of at most 500 candidates.
    func existingIDs(
        of objectType: String,
        org: any OrgClient,
        store: SoupStore,
        syncID: Int64,
        body: (RemoteIDPage) async throws -> Bool
    ) async throws {
        var after: String?
        while true {
            let (soup, idPath, last) = (soupName, idFieldName, after)
            let slice = try await store.read { reader in
                try reader.ghostCandidateIDs(
                    in: soup,
                    idPath: idPath,
                    syncID: syncID,
                    after: last,
                    limit: SOQLText.maximumIDsPerQuery
                )
            }
            guard let lastID = slice.last else { return }
            after = lastID
            let query = SOQLText.select(fields: [idFieldName], from: objectType, idField: idFieldName, in: slice)
            for try await page in org.queryPages(query) {
                guard try await body(.records(page.body.text)) else { return }
            }
        }
    }
}
