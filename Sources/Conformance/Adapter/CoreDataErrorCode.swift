/// The `NSCocoaErrorDomain` codes a store reports when a save fails
/// (CoreData's `CoreDataErrors.h`; see docs/coredata-semantics.md §2).
public enum CoreDataErrorCode {
    /// `NSManagedObjectValidationError`: generic validation failure (e.g. a to-one pointing at
    /// the wrong entity).
    public static let managedObjectValidation = 1550
    /// `NSValidationMultipleErrorsError`: several failures, listed in `details`.
    public static let multipleErrors = 1560
    /// `NSValidationMissingMandatoryPropertyError`: a required attribute or relationship is nil.
    public static let missingMandatoryProperty = 1570
    /// `NSValidationRelationshipLacksMinimumCountError`.
    public static let relationshipLacksMinimumCount = 1580
    /// `NSValidationRelationshipExceedsMaximumCountError`.
    public static let relationshipExceedsMaximumCount = 1590
    /// `NSValidationRelationshipDeniedDeleteError`: a Deny rule found a destination.
    public static let relationshipDeniedDelete = 1600
    /// `NSValidationNumberTooLargeError`.
    public static let numberTooLarge = 1610
    /// `NSValidationNumberTooSmallError`.
    public static let numberTooSmall = 1620
    /// `NSValidationDateTooLateError`.
    public static let dateTooLate = 1630
    /// `NSValidationDateTooSoonError`.
    public static let dateTooSoon = 1640
    /// `NSValidationStringTooLongError`.
    public static let stringTooLong = 1660
    /// `NSValidationStringTooShortError`.
    public static let stringTooShort = 1670
    /// `NSValidationStringPatternMatchingError`.
    public static let stringPatternMatching = 1680
    /// `NSManagedObjectMergeError`: a conflict no policy can resolve (e.g. mixed entities).
    public static let managedObjectMerge = 133020
    /// `NSManagedObjectConstraintMergeError`: a uniqueness conflict under the error policy.
    public static let managedObjectConstraintMerge = 133021

    /// `NSPersistentStoreIncompatibleVersionHashError`: the store was saved with a model whose
    /// version hashes differ from the model it is opened with, and no migration was asked for.
    public static let persistentStoreIncompatibleVersionHash = 134100
    /// `NSMigrationError`: the migration itself failed (e.g. a row left without a value for a
    /// new required attribute that has no default).
    public static let migration = 134110
    /// `NSMigrationMissingMappingModelError`: no mapping model was given and none can be
    /// inferred from the two versions.
    public static let migrationMissingMappingModel = 134140
    /// `NSFileWriteNoPermissionError` (Foundation, `FoundationErrors.h`): what saving changes to a
    /// store opened with `NSReadOnlyPersistentStoreOption` fails with (contract 1.4, §4.12).
    public static let fileWriteNoPermission = 513

    /// The Core Data constant's name for a code, for messages and reports.
    public static func name(of code: Int) -> String? {
        names[code]
    }

    private static let names: [Int: String] = [
        513: "NSFileWriteNoPermissionError",
        1550: "NSManagedObjectValidationError",
        1551: "NSManagedObjectConstraintValidationError",
        1560: "NSValidationMultipleErrorsError",
        1570: "NSValidationMissingMandatoryPropertyError",
        1580: "NSValidationRelationshipLacksMinimumCountError",
        1590: "NSValidationRelationshipExceedsMaximumCountError",
        1600: "NSValidationRelationshipDeniedDeleteError",
        1610: "NSValidationNumberTooLargeError",
        1620: "NSValidationNumberTooSmallError",
        1630: "NSValidationDateTooLateError",
        1640: "NSValidationDateTooSoonError",
        1650: "NSValidationInvalidDateError",
        1660: "NSValidationStringTooLongError",
        1670: "NSValidationStringTooShortError",
        1680: "NSValidationStringPatternMatchingError",
        1690: "NSValidationInvalidURIError",
        133000: "NSManagedObjectReferentialIntegrityError",
        133020: "NSManagedObjectMergeError",
        133021: "NSManagedObjectConstraintMergeError",
        134100: "NSPersistentStoreIncompatibleVersionHashError",
        134110: "NSMigrationError",
        134140: "NSMigrationMissingMappingModelError",
    ]
}
