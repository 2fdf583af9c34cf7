import ArgumentParser
import ArtpipeCommandLine

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
        abstract: "Test and benchmark tools: drive the worker runtime, fill topics, measure the stages.",
        subcommands: [
            ConsumeCommand.self, ProduceCommand.self, FetchBenchCommand.self, ThumbBenchCommand.self,
            ProducePagesCommand.self, SampleGalleryCommand.self, HarvestBenchCommand.self,
            PublishPagesCommand.self, DownloadBenchCommand.self, IndexMemoryCommand.self, AssemblyBenchCommand.self,
            TopicFloorCommand.self,
        ])
}
