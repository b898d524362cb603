import SOQL
import Testing

/// Conditions nested without bound (`((((…` or `NOT NOT …`) used to recurse until the stack ran
/// out; the parser now refuses them at 100 levels (issue 20 item 1).
struct SOQLNestingTests {
    /// Hostile nesting is refused at 100 levels instead of exhausting the stack.
    @Test func deeplyNestedConditionsAreAnErrorNotACrash() throws {
        for opener in ["(", "NOT "] {
            let deep = String(repeating: opener, count: 100_000)
            let error = #expect(throws: SOQLError.self) {
                try SOQLQuery.parse("SELECT Id FROM Account WHERE \(deep)Name = 'x'")
            }
            #expect(error?.message.contains("more than 100 levels deep") == true)
        }
        let fine = String(repeating: "(", count: 100) + "Name = 'x'" + String(repeating: ")", count: 100)
        #expect(try SOQLQuery.parse("SELECT Id FROM Account WHERE \(fine)").condition != nil)
    }
}
