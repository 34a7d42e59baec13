/// The words synthetic models are made of. Names avoid every word Core Data reserves or
/// warns about (`description`, `entity`, `type`, `isDeleted`, …; see
/// `docs/coredata-semantics.md` §4) so a generated model lints clean, and
/// class names that would shadow a Foundation or Swift type (`Bundle`, `Task`).
enum Vocabulary {
    /// Entity names, as an app would have them; a second use gets a number (`Invoice2`).
    static let nouns = [
        "Account", "Album", "Article", "Attachment", "Author", "Badge", "Booking", "Channel", "Chore",
        "Comment", "Contact", "Coupon", "Device", "Document", "Episode", "Event", "Folder", "Invoice",
        "Journal", "Label", "Lesson", "Location", "Message", "Note", "Order", "Payment", "Photo",
        "Playlist", "Post", "Product", "Profile", "Project", "Receipt", "Recipe", "Reminder", "Review", "Route",
        "Session", "Shipment", "Sketch", "Station", "Subscription", "Survey", "Team", "Ticket",
        "Track", "Trip", "Vendor", "Voucher", "Workout",
    ]

    /// Attribute names that suit each type; a name taken in the hierarchy gets a number.
    static func attributeNames(for type: GeneratedAttributeType) -> [String] {
        switch type {
        case .undefined: ["scratchValue", "cachedLayout", "pendingState"]
        case .integer16: ["rank", "priority", "level", "colorIndex"]
        case .integer32: ["position", "quantity", "viewCount", "sortOrder"]
        case .integer64: ["serverIdentifier", "byteCount", "revision", "durationMillis"]
        case .decimal: ["price", "amount", "balance", "taxRate"]
        case .double: ["latitude", "longitude", "rating", "score"]
        case .float: ["progress", "opacity", "weight", "volumeLevel"]
        case .string: ["title", "name", "summary", "notes", "code", "slug", "email", "status"]
        case .boolean: ["isArchived", "isFavorite", "isPinned", "isHidden", "needsSync"]
        case .date: ["createdAt", "updatedAt", "dueDate", "publishedAt", "lastOpenedAt"]
        case .binary: ["thumbnail", "payload", "avatarData", "signature"]
        case .uuid: ["uuid", "remoteID", "syncID"]
        case .uri: ["url", "homepage", "sourceURL"]
        case .transformable: ["keywords", "settings", "palette"]
        case .composite: ["address", "billingAddress", "shippingAddress"]
        }
    }

    /// Prefixes that tell apart two relationships between the same two entities.
    static let relationshipRoles = ["related", "linked", "featured", "archived", "pinned"]

    /// `invoice` → `invoices`, `category` → `categories`, `box` → `boxes`.
    static func plural(_ word: String) -> String {
        if word.hasSuffix("y"), let beforeY = word.dropLast().last, !"aeiou".contains(beforeY) {
            return word.dropLast() + "ies"
        }
        if word.hasSuffix("s") || word.hasSuffix("x") || word.hasSuffix("ch") || word.hasSuffix("sh") {
            return word + "es"
        }
        return word + "s"
    }

    static func lowercasingFirst(_ word: String) -> String {
        word.prefix(1).lowercased() + word.dropFirst()
    }

    static func uppercasingFirst(_ word: String) -> String {
        word.prefix(1).uppercased() + word.dropFirst()
    }
}
