import Foundation
import SoupStore
import SyncLedger
import SyncrunTestSupport
import Testing

/// `previewChildren(ofParentsPage:options:recordLimit:)` splits a page of trees as
/// `upsertChildren(ofParentsPage:options:)` does, without writing.
struct ParentChildrenPagePreviewTests {
    private static let soups = [
        SoupSpec(
            name: "accounts",
            indexes: [IndexSpec(path: "Id", type: .string), IndexSpec(path: "__local__", type: .string)]
        ),
        SoupSpec(
            name: "contacts",
            indexes: [
                IndexSpec(path: "Id", type: .string), IndexSpec(path: "AccountId", type: .string),
                IndexSpec(path: "__local__", type: .string),
            ]
        ),
    ]

    private func options(localEntries: LocalEntries) -> ParentChildrenPageOptions {
        ParentChildrenPageOptions(
            parentSoup: "accounts",
            parentIDPath: "Id",
            childrenKey: "Contacts",
            childSoup: "contacts",
            childIDPath: "Id",
            parentIDFieldOnChild: "AccountId",
            localEntries: localEntries,
            syncID: 1
        )
    }

    /// Three accounts with two contacts each (the server spells the key `contacts`); the third
    /// account's set is paged.
    private func page(_ name: String) -> String {
        func contacts(_ account: Int, more: Bool) -> String {
            let records = (1...2).map { #"{"Id":"003\#(account)\#($0)","LastName":"\#(name)"}"# }
            let next = more ? #","nextRecordsUrl":"/services/data/v62.0/query/01gMore-2""# : ""
            let list = records.joined(separator: ",")
            return #"{"totalSize":\#(more ? 4 : 2),"done":\#(!more)\#(next),"records":[\#(list)]}"#
        }
        let accounts = (1...3).map { account in
            #"{"Id":"001\#(account)","Name":"\#(name)","contacts":\#(contacts(account, more: account == 3))}"#
        }
        return #"{"totalSize":3,"done":true,"records":[\#(accounts.joined(separator: ","))]}"#
    }

    @Test(arguments: LocalEntries.allCases)
    func splitsThePageAsUpsertChildrenThenDoes(localEntries: LocalEntries) throws {
        let temporary = try TemporaryStore(soups: Self.soups)
        defer { temporary.remove() }
        let store = temporary.store
        let options = options(localEntries: localEntries)
        try store.write { writer in
            let first = try writer.upsertChildren(ofParentsPage: page("first"), options: options)
            _ = try writer.upsertPage(first.parentsPage, into: "accounts")
            // Account 1 is protected by a child, account 2 by itself.
            _ = try writer.upsert(
                #"{"Id":"00311","AccountId":"0011","__local__":true}"#,
                into: "contacts",
                byExternalIDPath: "Id"
            )
            _ = try writer.upsert(
                #"{"Id":"0012","Name":"local","__local__":true}"#,
                into: "accounts",
                byExternalIDPath: "Id"
            )
        }
        let wal = URL(fileURLWithPath: temporary.path + "-wal")
        let stamp = try Data(contentsOf: wal)

        let preview = try store.read { reader in
            try reader.previewChildren(ofParentsPage: page("second"), options: options, recordLimit: 10)
        }
        let children = try store.read { reader in
            try reader.previewPage(
                preview.childrenPage,
                in: "contacts",
                options: PageUpsertOptions(
                    externalIDPath: "Id",
                    localEntries: localEntries
                )
            )
        }

        #expect(try Data(contentsOf: wal) == stamp)
        let result = try store.write { try $0.upsertChildren(ofParentsPage: page("second"), options: options) }
        #expect(preview.parentsPage == result.parentsPage)
        #expect(preview.protectedByChildren == result.protectedByChildren)
        #expect(preview.moreChildren == result.moreChildren)
        #expect(children.inserted + children.updated == result.childrenSaved)
        #expect(preview.childrenSkipped + children.skipped == result.childrenSkipped)
        if localEntries == .keep {
            #expect(preview.protectedByChildren == 1 && preview.childrenSkipped == 4)
            #expect(preview.protectedParents.map(\.recordID) == ["0011"])
            #expect(preview.protectedParents.allSatisfy { $0.entryID != nil && $0.action == .skip })
            #expect(preview.skippedChildren.map(\.recordID) == ["00311", "00312", "00321", "00322"])
            #expect(
                preview.moreChildren == [
                    ChildrenContinuation(parentID: "0013", nextRecordsURL: "/services/data/v62.0/query/01gMore-2")
                ]
            )
        } else {
            #expect(preview.protectedByChildren == 0 && preview.childrenSkipped == 0)
            #expect(preview.protectedParents.isEmpty && preview.skippedChildren.isEmpty)
            #expect(children.updated == 6)
        }
    }

    @Test func soupsNotRegisteredYetAreTakenAsEmpty() throws {
        let temporary = try TemporaryStore()
        defer { temporary.remove() }
        let preview = try temporary.store.read { reader in
            try reader.previewChildren(ofParentsPage: page("new"), options: options(localEntries: .keep))
        }
        #expect(preview.protectedByChildren == 0 && preview.childrenSkipped == 0)
        let children = try temporary.store.read { try $0.previewPage(preview.childrenPage, in: "contacts") }
        #expect(children.inserted == 6)
        // The parent id field is set from the parent when the server left it out.
        let saved = try temporary.store.read { reader in
            try reader.childrenPage(
                #"{"records":[{"Id":"00399"}]}"#,
                ofParent: "0019",
                options: options(localEntries: .keep)
            )
        }
        #expect(saved == #"[{"Id":"00399","AccountId":"0019"}]"#)
    }
}
