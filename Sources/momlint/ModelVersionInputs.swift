import Configuring
import DataModel
import Foundation
import ModelDiff

/// Reading the one model or the one bundle a diff, print or versions command names, with a
/// one-line error for anything else.
enum ModelVersionInputs {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// One model: an `.xcdatamodeld` bundle's current version, an `.xcdatamodel` folder, or a
    /// `contents` file. Any other file is read as a `contents` document, as `git diff` hands a
    /// textconv driver a temporary file of any name.
    static func model(at named: String) throws(Failure) -> Model {
        // `.` inside a version folder: what it is shows only in its absolute path.
        let path = ModelPaths.named(named)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw Failure(description: "\(path): error: no such file or directory")
        }
        if isDirectory.boolValue {
            guard ["xcdatamodeld", "xcdatamodel"].contains(ModelPaths.pathExtension(of: path)) else {
                throw Failure(description: "\(path): error: name an .xcdatamodeld bundle, an .xcdatamodel folder "
                    + "or a contents file, not a folder to search")
            }
            let result = ModelLoader().load(paths: [path])
            if let failure = result.failures.first { throw Failure(description: failure.description) }
            guard let model = result.models.first else { throw Failure(description: "\(path): error: no model found here") }
            return model
        }
        if (path as NSString).lastPathComponent == "contents" {
            let result = ModelLoader().load(paths: [path])
            if let failure = result.failures.first { throw Failure(description: failure.description) }
            if let model = result.models.first { return model }
        }
        return try model(fromBytes: try read(path), file: path)
    }

    static func model(fromBytes bytes: [UInt8], file: String, version: ModelVersion? = nil) throws(Failure) -> Model {
        do {
            return try ModelLoader().model(fromContents: bytes, file: file, version: version)
        } catch {
            throw Failure(description: error.description)
        }
    }

    static func read(_ path: String) throws(Failure) -> [UInt8] {
        let limit = LoadLimits.standard.maximumFileBytes
        let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
        guard size <= limit else {
            throw Failure(description: "\(path): error: the file is \(size) bytes, over the limit of \(limit)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure(description: "\(path): error: cannot read the file")
        }
        return Array(data)
    }

    /// Every version of a bundle, in order. An older version that cannot be read is listed as
    /// unreadable, not an error: old versions must never change.
    static func bundle(at named: String, versionOrder: [String]?) throws(Failure) -> BundleVersions {
        let path = ModelPaths.named(named)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw Failure(description: "\(named): error: no such file or directory")
        }
        guard isDirectory.boolValue, ModelPaths.pathExtension(of: path) == "xcdatamodeld" else {
            throw Failure(description: "\(named): error: not an .xcdatamodeld bundle")
        }
        let reading = BundleVersions.read(bundle: path, loader: ModelLoader(), configuredOrder: versionOrder)
        if let failure = reading.failures.first { throw Failure(description: failure.description) }
        guard let bundle = reading.bundle else {
            throw Failure(description: "\(named): error: the bundle holds no version that can be read")
        }
        return bundle
    }

    /// The bundle's versions in the order the configuration gives them (`configuredMigration`).
    static func bundle(at path: String, configurationFiles: [String]) throws(Failure) -> BundleVersions {
        try bundle(at: path, versionOrder: configuredMigration(ofBundle: path, configurationFiles: configurationFiles).order)
    }

    /// The version order (`migration.version_order`) and the migration path (`migration.path`)
    /// the configuration gives a bundle: the configuration found as `momlint lint` finds it (the
    /// nearest `.momlint.yml`, or the `--config` files), so `lint`, `versions`, `diff` and
    /// `store check` order a bundle alike.
    static func configuredMigration(ofBundle path: String, configurationFiles: [String])
        throws(Failure) -> (order: [String]?, path: MigrationPath?) {
        do {
            let loaded = try ConfigurationFile.load(explicitFiles: configurationFiles)
            var standardError = StandardError()
            for warning in loaded.warnings { print(warning, to: &standardError) }
            return (BundleVersions.configuredOrder(ofBundle: ModelPaths.named(path),
                                                   in: loaded.configuration.migration.versionOrder),
                    loaded.configuration.migration.path)
        } catch {
            throw Failure(description: error.description)
        }
    }

    /// The `.xcmappingmodel`s beside a bundle (or a version folder), for a diff's verdict.
    static func mappingModels(beside bundleOrFolder: String) -> MappingModels {
        MappingModels(searching: [ModelPaths.parent(of: bundleOrFolder)])
    }
}
