import Foundation
import Testing

/// Issue 39, part 4: the web view in a real browser. The built opctl serves a few Tour runs
/// (`opctl ui --port 0`), and a headless Chromium loads the runs page and a run's page: the
/// DOM it builds lists the runs, the run's steps and its SVG diagram's participants and
/// messages, and its console reports no script or content-security-policy error. A screenshot
/// of each page is left where the test prints, for a person to open.
///
/// Enabled only where a Chromium is on `PATH` (`.ci/run` installs it where it can).
struct WebViewBrowserTests {
    /// The first of `chromium`, `chromium-browser` and `google-chrome` on `PATH`.
    static let chromium: URL? = {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            for directory in directories {
                let url = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: url.path) { return url }
            }
        }
        return nil
    }()

    /// Where the screenshots go: `.build/ui-screenshots/` of this package.
    static let screenshots = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/ui-screenshots", isDirectory: true)

    /// What Chromium's console says when a page's script fails or its policy refuses something.
    static let consoleErrors = ["Uncaught", "Refused to", "Content Security Policy"]

    @Test(
        .enabled(
            if: chromium != nil,
            "no headless Chromium on PATH (chromium, chromium-browser or google-chrome): the browser test is skipped"))
    func theRunsPageAndARunsPageLoadInAHeadlessChromium() throws {
        let chromium = try #require(Self.chromium)
        let sandbox = try Sandbox()
        let phone = "+7 999 123-45-67"
        let succeeded = try sandbox.run("run", "auth", "--phone", phone, "--accept-terms", "--code", "123456")
        #expect(succeeded.status == 0, "\(succeeded)")
        let failed = try sandbox.run("run", "auth", "--phone", phone, "--accept-terms", "--code", "000000")
        #expect(failed.status == 1, "\(failed)")
        let failedID = try #require(runID(in: failed.stderr), "\(failed)")
        let rerun = try sandbox.run("rerun", failedID, "--code", "123456")
        #expect(rerun.status == 0, "\(rerun)")
        let ids = [runID(in: succeeded.stderr), failedID].compactMap { $0 }

        let server = try sandbox.start(["ui", "--port", "0"])
        let banner = try server.waitForStdout(containing: "(Ctrl-C stops)")
        let address = try #require(
            banner.firstMatch(of: /Serving the runs of opctl at (http:\/\/127\.0\.0\.1:\d+\/) \(Ctrl-C stops\)/)?.1,
            "\(banner)")

        let runs = try Self.load(String(address), with: chromium, in: sandbox, screenshot: "runs")
        for id in ids {
            #expect(runs.dom.contains("href=\"/runs/\(id)\""), "run \(id) is listed: \(runs.dom)")
        }
        #expect(runs.dom.contains("<td>succeeded</td>"), "\(runs.dom)")

        let run = try Self.load("\(address)runs/\(failedID)?depth=3", with: chromium, in: sandbox, screenshot: "run")
        for step in ["  PhoneOp: replayed from the journal", "    CodeOp: succeeded", "  SaveTokenOp: succeeded"] {
            #expect(run.dom.contains("<li>\(step)"), "the step \(step): \(run.dom)")
        }
        #expect(run.dom.contains("<svg"), "the diagram is drawn: \(run.dom)")
        // The SVG's text as the browser built it: participants, and messages sent and answered.
        let texts = run.dom.matches(of: /<text[^>]*>([^<]*)<\/text>/).map { String($0.1) }
        for participant in ["AuthScenario", "PhoneOp", "AuthAPI", "CodeOp", "SaveTokenOp"] {
            #expect(texts.contains(participant), "the participant \(participant): \(texts)")
        }
        for message in ["launch(+799…4567)", "submitPhone(", "AuthScenario: run (session 1 of 2)"] {
            #expect(texts.contains(message), "the message \(message): \(texts)")
        }
        for log in [runs.log, run.log] {
            for error in Self.consoleErrors {
                #expect(!log.contains(error), "the console says \(error):\n\(log)")
            }
        }

        server.interrupt()
        let stopped = try server.wait()
        #expect(stopped.status == 0, "\(stopped)")
    }

    /// `url` loaded by a headless Chromium: the DOM it built, and its log (the console's
    /// messages among them); a screenshot of it under ``screenshots``, its path printed.
    static func load(_ url: String, with chromium: URL, in sandbox: Sandbox, screenshot name: String) throws -> (
        dom: String, log: String
    ) {
        let profile = sandbox.root.appendingPathComponent("chromium-\(name)").path
        let common = [
            "--headless", "--disable-gpu", "--no-sandbox", "--user-data-dir=\(profile)", "--enable-logging=stderr",
            "--v=0",
        ]
        let dom = try run(chromium, common + ["--dump-dom", url], in: sandbox)
        try FileManager.default.createDirectory(at: screenshots, withIntermediateDirectories: true)
        let picture = screenshots.appendingPathComponent("\(name).png")
        let shot = try run(
            chromium, common + ["--screenshot=\(picture.path)", "--window-size=1280,2000", url], in: sandbox)
        #expect(FileManager.default.fileExists(atPath: picture.path), "no screenshot: \(shot.stderr)")
        print("Screenshot of \(url): \(picture.path)")
        return (dom.stdout, dom.stderr + shot.stderr)
    }

    /// Runs `executable` to its end, output in files (a pipe left unread could block it).
    static func run(_ executable: URL, _ arguments: [String], in sandbox: Sandbox) throws -> (
        stdout: String, stderr: String
    ) {
        let name = UUID().uuidString
        let out = sandbox.root.appendingPathComponent("\(name).stdout")
        let err = sandbox.root.appendingPathComponent("\(name).stderr")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        if exited.wait(timeout: .now() + OpctlTimeout.patience) == .timedOut {
            process.terminate()
            Issue.record("\(executable.lastPathComponent) did not finish in \(OpctlTimeout.patience) s")
        }
        process.waitUntilExit()
        let read = { (url: URL) in String(decoding: (try? Data(contentsOf: url)) ?? Data(), as: UTF8.self) }
        return (read(out), read(err))
    }
}
