import CoreLogic

/// The email check shared by the forms (`profile`, `signup`): deliberately simple, the
/// server has the last word.
enum EmailAddress {
    /// One `@`, a non-empty local part, a domain with a dot that is neither first nor
    /// last, and no whitespace.
    static func isValid(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty else { return false }
        let domain = parts[1]
        guard let dot = domain.lastIndex(of: "."),
              dot != domain.startIndex, domain.index(after: dot) != domain.endIndex else { return false }
        return !text.contains { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
    }
}
