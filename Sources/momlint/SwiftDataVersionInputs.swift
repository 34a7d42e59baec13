import ArgumentParser
import Foundation
import Linting
#if !MOMLINT_HOOK_BUILD
import SwiftDataModel
#endif

/// The versioned schemas of a SwiftData folder for `versions --swiftdata` and `diff --swiftdata`,
/// or exit 2 with each problem on standard error.
enum SwiftDataVersionInputs {
    static func versions(at folder: String) throws -> SwiftDataVersions {
        #if MOMLINT_HOOK_BUILD
        throw ExitCode.inputError(saying: "\(folder): error: " + GraphCommand.noSwiftDataInHookBuild)
        #else
        var standardError = StandardError()
        let read = SwiftDataVersionsReader().read(folder: folder)
        for note in read.notes { print(note, to: &standardError) }
        for problem in read.problems { print(problem, to: &standardError) }
        guard read.problems.isEmpty else { throw ExitCode.inputError }
        guard let versions = read.versions else {
            throw ExitCode.inputError(saying: "\(folder): error: no VersionedSchema in these Swift sources; pass the folder "
                + "that declares the app's versioned schemas")
        }
        return versions
        #endif
    }
}
