import ModelDiff
import Testing

/// `--since` and `migration.since` read into a `VersionBase`.
@Suite struct VersionBaseTests {
    @Test func namesAndRevisions() throws {
        #expect(try VersionBase(argument: "none") == .none)
        #expect(try VersionBase(argument: "HEAD") == .head)
        #expect(try VersionBase(argument: "origin/main") == .revision("origin/main"))
        #expect(try VersionBase(argument: "HEAD~2") == .revision("HEAD~2"))
        // Revision expressions may hold spaces (git rev-parse resolves these).
        #expect(try VersionBase(argument: "main@{2 days ago}") == .revision("main@{2 days ago}"))
        // Case matters, as it does to git: 'head' is a ref name, not the keyword.
        #expect(try VersionBase(argument: "head") == .revision("head"))
    }

    @Test func textGitWouldMisreadIsRejected() {
        let cases: [(String, String)] = [
            ("", "'' is not a git revision: it is empty; give a branch, tag or commit, 'HEAD', or 'none'"),
            ("  ", "'  ' is not a git revision: it is empty; give a branch, tag or commit, 'HEAD', or 'none'"),
            ("--output=x", "'--output=x' is not a git revision: it starts with '-', which git reads as an option; "
                + "give a branch, tag or commit, 'HEAD', or 'none'"),
            ("main\nHEAD", #"'main\nHEAD' is not a git revision: it holds a control character; "#
                + "give a branch, tag or commit, 'HEAD', or 'none'"),
        ]
        for (argument, message) in cases {
            #expect(throws: InvalidVersionBase.self, "\(argument)") { try VersionBase(argument: argument) }
            do {
                _ = try VersionBase(argument: argument)
            } catch {
                #expect(error.description == message)
            }
        }
    }
}
