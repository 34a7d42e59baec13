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
        var standardError = StandardError()
        #if MOMLINT_HOOK_BUILD
        print("\(folder): error: " + GraphCommand.noSwiftDataInHookBuild, to: &standardError)
        throw ExitCode.inputError
        #else
        let read = SwiftDataVersionsReader().read(folder: folder)
        for note in read.notes { print(note, to: &standardError) }
        for problem in read.problems { print(problem, to: &standardError) }
        guard read.problems.isEmpty else { throw ExitCode.inputError }
        guard let versions = read.versions else {
            print("\(folder): error: no VersionedSchema in these Swift sources; pass the folder that declares the app's "
                  + "versioned schemas", to: &standardError)
            throw ExitCode.inputError
        }
        return versions
        #endif
    }
}
