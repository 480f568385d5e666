import Foundation
import Operations
import OperationsJournal
import OperationsTestSupport
import Testing

/// A run store asked for a data-protection class still creates, writes and lists its runs on
/// every platform; where there is no data protection (Linux, macOS) the class changes nothing.
extension JournalTests {
    @Suite struct FileProtectionTests {
        @Test(arguments: [
            FileProtection.inherited, .none, .complete, .completeUnlessOpen, .completeUntilFirstUserAuthentication,
        ])
        func aProtectedStoreKeepsItsRuns(protection: FileProtection) throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory, fileProtection: protection)
                #expect(store.fileProtection == protection)
                let journal = try store.create(scenario: "Protected")
                let scenario = Scenario<Int, Int>("Protected") { $0.then(Step("Load", RecordingOps().make)) }
                #expect(run(scenario, 1, environment: OpEnvironment(observer: journal))?.success == 2)
                try journal.close()
                #expect(try store.load(journal.runID).status == .succeeded)
            }
        }

        @Test func eachClassIsNamedAsFoundationNamesIt() {
            let names = [FileProtection.none, .complete, .completeUnlessOpen, .completeUntilFirstUserAuthentication]
                .map(\.description)
            #expect(names == ["none", "complete", "completeUnlessOpen", "completeUntilFirstUserAuthentication"])
        }

        #if !(os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
            /// Without data protection the files keep the owner-only mode a journal is made with.
            @Test func withoutDataProtectionNothingChanges() throws {
                try withTemporaryDirectory { directory in
                    let file = directory.appendingPathComponent("file")
                    try Data().write(to: file)
                    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
                    let before = try FileManager.default.attributesOfItem(atPath: file.path)
                    try FileProtection.complete.apply(to: file)
                    let after = try FileManager.default.attributesOfItem(atPath: file.path)
                    #expect(after[.posixPermissions] as? Int == before[.posixPermissions] as? Int)
                    #expect(after[.modificationDate] as? Date == before[.modificationDate] as? Date)
                }
            }
        #endif
    }
}
