import ArgumentParser
import ArtpipeSupport
import Foundation

/// Runs a root command the way every artpipe executable does: bad flags or configuration
/// print one line naming the problem and exit 2; other failures exit 1.
package enum CommandLineMain {
    package static func run<Root: ParsableCommand>(_ root: Root.Type) async -> Never {
        let name = Root.configuration.commandName ?? "artpipe"
        do {
            var command = try Root.parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            exit(0)
        } catch let error as ConfigurationError {
            fail(name, error.description, code: 2)
        } catch {
            let code = Root.exitCode(for: error)
            if code == .success { Root.exit(withError: error) }
            if code == .validationFailure {
                let message =
                    Root.message(for: error).split(separator: "\n").first.map(String.init) ?? "invalid arguments"
                fail(name, message, code: 2)
            }
            fail(name, "\(error)", code: code.rawValue == 0 ? 1 : code.rawValue)
        }
    }

    private static func fail(_ name: String, _ message: String, code: Int32) -> Never {
        let line = "\(name): error: \(message.replacingOccurrences(of: "\n", with: " "))\n"
        FileHandle.standardError.write(Data(line.utf8))
        exit(code)
    }
}
