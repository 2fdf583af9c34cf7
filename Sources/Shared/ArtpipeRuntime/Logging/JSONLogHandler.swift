import ArtpipeSupport
import Foundation
import Logging

/// Writes each log event as one JSON object on its own line: `ts`, `level`, `logger`, `msg`,
/// then the metadata. Numbers and booleans stay JSON numbers and booleans.
package struct JSONLogHandler: LogHandler {
    package var logLevel: Logger.Level = .info
    package var metadata: Logger.Metadata = [:]
    package var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let output: LineOutput

    package init(label: String, output: LineOutput = .standardOutput) {
        self.label = label
        self.output = output
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let explicit = event.metadata { merged.merge(explicit) { _, new in new } }
        if let error = event.error { merged["error"] = "\(error)" }
        var json = JSONText(reservingCapacity: 256)
        json.raw("{\"ts\":\"")
        json.verbatim(Self.timestamp())
        json.raw("\",\"level\":\"")
        json.verbatim(event.level.rawValue)
        json.raw("\",\"logger\":")
        json.string(label)
        json.raw(",\"msg\":")
        json.string(event.message.description)
        for key in merged.keys.sorted() where !["ts", "level", "logger", "msg"].contains(key) {
            json.byte(UInt8(ascii: ","))
            json.string(key)
            json.byte(UInt8(ascii: ":"))
            LogMetadataJSON.append(merged[key]!, to: &json)
        }
        json.raw("}\n")
        output.write(json.text)
    }

    static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var parts = tm()
        var seconds = now.tv_sec
        gmtime_r(&seconds, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
            parts.tm_hour, parts.tm_min, parts.tm_sec, now.tv_nsec / 1_000_000)
    }
}
