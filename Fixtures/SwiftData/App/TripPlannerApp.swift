import SwiftData
import SwiftUI

@main
struct TripPlannerApp: App {
    let container: ModelContainer

    init() {
        let schema = Schema([
            Trip.self, Stop.self, Expense.self, Traveler.self, Route.self, Voucher.self, Booking.self,
            Flight.self, Ticket.self, Note.self, Checklist.self, Folder.self, LegacyImport.self,
        ])
        // Synced with the user's private iCloud database: every CloudKit rule applies.
        let configuration = ModelConfiguration(
            schema: schema, cloudKitDatabase: .private("iCloud.com.example.TripPlanner"))
        do {
            container = try ModelContainer(for: schema, configurations: configuration)
        } catch {
            fatalError("Could not create the model container: \(error)")
        }
    }

    var body: some Scene {
        WindowGroup {
            ContentView()
        }
        .modelContainer(container)
    }
}
