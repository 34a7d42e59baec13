import Linting
import Testing

/// `NearestName` answers "did you mean" for configuration keys, rule ids and subcommands, and
/// its distance serves `managed_property_not_in_model`; the messages test it only through a
/// few names, so its edges are held here.
@Suite struct NearestNameTests {
    @Test(arguments: [
        ("", "", 0), ("", "abc", 3), ("abc", "", 3), ("same", "same", 0),
        ("kitten", "sitting", 3), ("flaw", "lawn", 2), ("ab", "ba", 2), ("note", "notes", 1), ("é", "e", 1),
    ])
    func editDistanceIsLevenshteinsOverCharacters(lhs: String, rhs: String, distance: Int) {
        #expect(NearestName.editDistance(lhs, rhs) == distance)
        #expect(NearestName.editDistance(rhs, lhs) == distance)
    }

    @Test func theClosestNameIsNearestFirstThenAlphabeticalWithinItsReach() {
        #expect(NearestName.closest(to: "missing_invers", among: ["missing_inverse", "inverse_mismatch"]) == "missing_inverse")
        // Two names at distance 1: the alphabetically first.
        #expect(NearestName.closest(to: "lnt", among: ["lint", "list"]) == "lint")
        #expect(NearestName.closest(to: "lits", among: ["list", "lint"]) == "lint")  // both 2 away
        // Reach: at most 2, or a quarter of the word's length.
        #expect(NearestName.closest(to: "abc", among: ["xyz"]) == nil)
        #expect(NearestName.closest(to: "duplicate_propety", among: ["duplicate_property"]) == "duplicate_property")
        #expect(NearestName.closest(to: "duplicate_propety_name", among: ["duplicate_property"]) == nil)  // 6 away, reach 5
        #expect(NearestName.closest(to: "x", among: []) == nil)
    }
}
