import ArgumentParser
import Shared

@main
enum ProbeMain {
    static func main() async {
        await CommandLineMain.run(Probe.self)
    }
}

/// A load and fault probe for the worker runtime, used by the tests and `make bench`.
struct Probe: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "artpipe-probe",
        abstract: "Drive the worker runtime with a recording handler, or fill a topic, for tests and benchmarks.",
        subcommands: [ConsumeCommand.self, ProduceCommand.self, FetchBenchCommand.self, ThumbBenchCommand.self])
}
