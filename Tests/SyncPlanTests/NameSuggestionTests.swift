import SyncConfig
import Testing

/// "Did you mean" suggestions: the one rule, in SyncConfig, that plans use too.
struct NameSuggestionTests {
    @Test(
        arguments: [
            ("acountsDown", ["accountsDown", "contactsDown"], "accountsDown"),
            ("ACCOUNTSDOWN", ["contactsDown", "accountsDown"], "accountsDown"),
            ("contactDown", ["accountsDown", "contactsDown"], "contactsDown"),
            ("xyz", ["accountsDown"], nil),
            ("a", [], nil),
            // At most a third of the name's length (at least 1, at most 3) may differ.
            ("ab", ["cd"], nil),
            ("accts", ["acts"], "acts"),
            ("acts", ["accts", "acct"], "accts"),
        ] as [(String, [String], String?)]
    )
    func suggestsOnlyPlausibleTypos(name: String, candidates: [String], expected: String?) {
        #expect(Suggestion.closest(to: name, in: candidates) == expected)
    }

    @Test func editDistance() {
        #expect(Suggestion.editDistance("kitten", "sitting") == 3)
        #expect(Suggestion.editDistance("", "abc") == 3)
        #expect(Suggestion.editDistance("same", "same") == 0)
    }
}
