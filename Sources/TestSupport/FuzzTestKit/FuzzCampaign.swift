import Foundation

/// One fuzz run of one target: which inputs (a seed and a count, or a time budget), and where
/// the number of the input being tried is kept, so that an input that ends the process is
/// named and can be made again (``InputMutator/input(_:seed:)``).
///
/// `make test` runs each target with the fixed seed and the count its test gives. The
/// environment widens that for `make fuzz` (scripts/fuzz.sh):
/// - `ARTPIPE_FUZZ_SEED`: the campaign's seed;
/// - `ARTPIPE_FUZZ_SECONDS`: inputs go on until this many seconds have passed, not a count;
/// - `ARTPIPE_FUZZ_PROGRESS`: a folder where each target writes the number of the input it
///   is trying, before it tries it (so a crash leaves it there);
/// - `ARTPIPE_FUZZ_SAVE`: a folder to write one input to instead of trying it, with
///   `ARTPIPE_FUZZ_TARGET` and `ARTPIPE_FUZZ_INPUT` naming it (how a crash is saved).
package struct FuzzCampaign: Sendable {
    package var target: String
    package var seed: UInt64
    package var count: Int
    package var seconds: Double?
    package var progress: URL?
    package var save: (folder: URL, input: Int)?
    /// Another target's input is being saved: this one tries nothing.
    package var idle = false

    /// The fixed seed `make test` uses.
    package static let fixedSeed: UInt64 = 68

    /// `target`'s campaign: `count` inputs from the fixed seed unless the environment says otherwise.
    package init(target: String, count: Int, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.target = target
        seed = environment["ARTPIPE_FUZZ_SEED"].flatMap { UInt64($0) } ?? Self.fixedSeed
        self.count = count
        seconds = environment["ARTPIPE_FUZZ_SECONDS"].flatMap { Double($0) }
        progress = environment["ARTPIPE_FUZZ_PROGRESS"].map { URL(fileURLWithPath: $0) }
        if let folder = environment["ARTPIPE_FUZZ_SAVE"], environment["ARTPIPE_FUZZ_TARGET"] == target,
            let input = environment["ARTPIPE_FUZZ_INPUT"].flatMap({ Int($0) })
        {
            save = (URL(fileURLWithPath: folder), input)
        }
        idle = environment["ARTPIPE_FUZZ_SAVE"] != nil && save == nil
    }

    /// What a run tried.
    package struct Report: Sendable, CustomStringConvertible {
        package var target: String
        package var inputs: Int
        package var seconds: Double
        /// How many inputs the target refused with an error (the rest it read).
        package var refused: Int

        package var description: String {
            let rate = seconds > 0 ? Int(Double(inputs) / seconds * 60) : 0
            return
                "\(target): \(inputs) inputs in \(String(format: "%.1f", seconds)) s (\(rate) a minute), \(refused) refused"
        }
    }

    /// Tries each input on `body`, which returns whether the target read it (false: it
    /// refused it with an error, as it should hostile input). A trap in `body` ends the process:
    /// what this is here to find.
    @discardableResult
    package func run(_ mutator: InputMutator, _ body: ([UInt8]) -> Bool) throws -> Report {
        if let save {
            try FileManager.default.createDirectory(at: save.folder, withIntermediateDirectories: true)
            let file = save.folder.appendingPathComponent("\(target)-\(seed)-\(save.input).bin")
            try Data(mutator.input(save.input, seed: seed)).write(to: file)
            return Report(target: target, inputs: 0, seconds: 0, refused: 0)
        }
        if idle { return Report(target: target, inputs: 0, seconds: 0, refused: 0) }
        let progressFile = progress.map { $0.appendingPathComponent("\(target).input") }
        if let progress { try FileManager.default.createDirectory(at: progress, withIntermediateDirectories: true) }
        let start = ContinuousClock.now
        var (number, refused) = (0, 0)
        while seconds.map({ (ContinuousClock.now - start) < .milliseconds(Int($0 * 1_000)) }) ?? (number < count) {
            if let progressFile { try Data("\(seed) \(number)\n".utf8).write(to: progressFile) }
            if !body(mutator.input(number, seed: seed)) { refused += 1 }
            number += 1
        }
        if let progressFile { try? FileManager.default.removeItem(at: progressFile) }
        let elapsed = ContinuousClock.now - start
        let report = Report(
            target: target, inputs: number,
            seconds: elapsed / .seconds(1),
            refused: refused)
        // A timed run (`make fuzz`) says what it tried.
        if seconds != nil { print("fuzz \(report)") }
        return report
    }
}
