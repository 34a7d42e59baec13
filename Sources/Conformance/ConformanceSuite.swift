import Foundation

/// One-line integration for Swift store implementers, in their own test target:
///
/// ```swift
/// import Conformance
/// import Testing
///
/// @Test(arguments: try ConformanceSuite.scenarios())
/// func conforms(_ scenario: Scenario) async throws {
///     try await ConformanceSuite.check(scenario, adapter: MyStore.init)
/// }
/// ```
///
/// where `MyStore: ConformanceStore` has an `init(_ setup: StoreSetup) throws`.
public enum ConformanceSuite {
    /// Where the shipped scenarios are: `$MOMLINT_SCENARIOS` when set, otherwise
    /// `Fixtures/Scenarios` of the momlint checkout this library was compiled from (SwiftPM
    /// keeps the checkout, under `.build/checkouts/momlint` for a dependency).
    public static var defaultScenarioDirectory: String {
        if let override = ProcessInfo.processInfo.environment["MOMLINT_SCENARIOS"], !override.isEmpty {
            return override
        }
        return packageRoot.appendingPathComponent("Fixtures/Scenarios").path
    }

    /// The models the shipped scenarios use: `Fixtures/Models` of the momlint checkout this
    /// library was compiled from. Every scenario may name a model here.
    public static var shippedModelDirectory: String {
        packageRoot.appendingPathComponent("Fixtures/Models").path
    }

    /// The root of the momlint checkout this library was compiled from.
    private static var packageRoot: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // Conformance
            .deletingLastPathComponent()  // Sources
            .deletingLastPathComponent()  // package root
    }

    /// Every scenario, in id order. Throws when any file fails to load, so a broken or missing
    /// suite can never pass as an empty one.
    public static func scenarios(in directory: String? = nil) throws -> [Scenario] {
        let suite = ScenarioLoader().loadSuite(in: directory ?? defaultScenarioDirectory)
        guard suite.errors.isEmpty else { throw ConformanceSuiteError(errors: suite.errors) }
        guard !suite.scenarios.isEmpty else {
            throw ConformanceSuiteError(errors: [ScenarioLoadError(
                file: directory ?? defaultScenarioDirectory, message: "no scenario files (*.yaml) found")])
        }
        return suite.scenarios
    }

    /// Runs `scenario` against `adapter` and throws when it fails — or when it passes but
    /// `expectedFailures` lists it. A scenario needing a feature the adapter does not support
    /// returns without running.
    public static func check(_ scenario: Scenario, adapter: any StoreAdapter,
                             expectedFailures: ExpectedFailures = .none,
                             timeLimit: Duration = .seconds(10)) async throws {
        let result = await ConformanceRunner(timeLimit: timeLimit).run(scenario, adapter: adapter)
        let summary = RunSummary(adapterName: adapter.name, results: [result], expectedFailures: expectedFailures)
        switch summary.outcome(of: result) {
        case .pass, .expectedFailure, .skip:
            return
        case .fail, .unexpectedPass:
            throw ConformanceFailure(scenario: scenario, place: result.failurePlace,
                                     message: summary.message(of: result) ?? "failed")
        }
    }

    /// The same, for a store type whose initializer opens a fresh store:
    /// `try await ConformanceSuite.check(scenario, adapter: MyStore.init)`.
    public static func check<Store: ConformanceStore>(
        _ scenario: Scenario, adapter open: @escaping @Sendable (StoreSetup) throws -> Store,
        unsupportedFeatures: Set<Feature> = [], expectedFailures: ExpectedFailures = .none,
        timeLimit: Duration = .seconds(10)
    ) async throws {
        let adapter = ClosureStoreAdapter(name: String(describing: Store.self),
                                          unsupportedFeatures: unsupportedFeatures, open: open)
        try await check(scenario, adapter: adapter, expectedFailures: expectedFailures, timeLimit: timeLimit)
    }
}

/// A scenario that did not do what it says, as a test failure.
public struct ConformanceFailure: Error, CustomStringConvertible {
    public var scenario: Scenario
    /// `file:line` of the failing step.
    public var place: String
    public var message: String

    public var description: String {
        "\(place): scenario '\(scenario.id)' (\(scenario.summary)): \(message)"
    }
}

/// The shipped scenarios could not be loaded.
public struct ConformanceSuiteError: Error, CustomStringConvertible {
    public var errors: [ScenarioLoadError]

    public var description: String {
        errors.map(\.description).joined(separator: "\n")
    }
}
