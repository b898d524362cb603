import Testing

@testable import SyncPlan

/// "Did you mean" suggestions.
struct NameSuggestionTests {
    @Test(
        arguments: [
            ("acountsDown", ["accountsDown", "contactsDown"], "accountsDown"),
            ("ACCOUNTSDOWN", ["contactsDown", "accountsDown"], "accountsDown"),
            ("contactDown", ["accountsDown", "contactsDown"], "contactsDown"),
            ("xyz", ["accountsDown"], nil),
            ("a", [], nil),
        ] as [(String, [String], String?)]
    )
    func suggestsOnlyPlausibleTypos(name: String, candidates: [String], expected: String?) {
        #expect(NameSuggestion.closest(to: name, in: candidates) == expected)
    }

    @Test func editDistance() {
        #expect(NameSuggestion.editDistance("kitten", "sitting") == 3)
        #expect(NameSuggestion.editDistance("", "abc") == 3)
        #expect(NameSuggestion.editDistance("same", "same") == 0)
    }
}
