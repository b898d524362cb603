/// Where each item of a list of named schema items stands (an org's objects, an object's fields),
/// by its name lower-cased: names compare ignoring case, as Salesforce's do. The list itself is
/// the owner's; every change to it goes through here so the two stay in step.
struct NameIndex: Sendable, Equatable {
    private var positions: [String: Int] = [:]

    /// The position of the item named `name`, ignoring case.
    subscript(name: String) -> Int? { positions[name.lowercased()] }

    /// Adds `item` (named `name`) to the end of `items`, or replaces the item of that name in place.
    mutating func addOrReplace<Item>(_ item: Item, named name: String, in items: inout [Item]) {
        if let index = positions[name.lowercased()] {
            items[index] = item
        } else {
            positions[name.lowercased()] = items.count
            items.append(item)
        }
    }

    /// Removes the item named `name` (ignoring case) from `items`, if there is one; `nameOf` gives an
    /// item's name, to renumber those after it.
    mutating func remove<Item>(named name: String, from items: inout [Item], nameOf: (Item) -> String) {
        guard let index = positions[name.lowercased()] else { return }
        items.remove(at: index)
        positions = Dictionary(uniqueKeysWithValues: items.enumerated().map { (nameOf($1).lowercased(), $0) })
    }
}
