import ArgumentParser
import ArtpipeCommandLine

@main
enum ArtpipeMain {
    static func main() async {
        await CommandLineMain.run(Artpipe.self)
    }
}

/// The one artpipe executable: every role is a subcommand.
struct Artpipe: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "artpipe",
        abstract: "Harvests an art museum's collection into thumbnails and an index grouped by artist, over Kafka.",
        version: ArtpipeVersion.description,
        subcommands: [
            BrokerCommand.self, TopicsCommand.self, CrawlCommand.self, FetchWorkerCommand.self, ThumbWorkerCommand.self,
            IndexWorkerCommand.self, SampleServerCommand.self, DemoCommand.self, StatusCommand.self, ReplayCommand.self,
            PruneCommand.self, HealthcheckCommand.self,
        ])
}
