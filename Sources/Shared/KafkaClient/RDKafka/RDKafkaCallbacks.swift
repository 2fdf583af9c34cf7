import CKafka
import Logging

/// The Swift side of librdkafka's callbacks, reached through the handle's opaque pointer.
///
/// Set up before the handle exists and never changed afterwards (but for ``client``, set once
/// as the handle is made, before any poll can serve a rebalance), so it may be read from
/// librdkafka's threads. One instance serves one handle.
final class RDKafkaCallbacks: @unchecked Sendable {
    let logger: Logger
    /// The client whose handle calls back; nil once it is being destroyed.
    weak var client: RDKafkaClient?
    var rebalance: (@Sendable (RDKafkaClient, RDKafkaRebalance) -> Void)?
    var statistics: (@Sendable (String) -> Void)?
    var deliveryReports = false
    /// Told of each record delivered, before its sender hears of it.
    var acknowledged: KafkaAcknowledgedOffsets?
    /// Whether the configured assignment strategy is cooperative; set before the handle exists.
    private(set) var configuredCooperative = false

    init(logger: Logger) {
        self.logger = logger
    }

    static func from(_ handle: OpaquePointer?) -> RDKafkaCallbacks? {
        guard let handle, let opaque = rd_kafka_opaque(handle) else { return nil }
        return Unmanaged<RDKafkaCallbacks>.fromOpaque(opaque).takeUnretainedValue()
    }

    /// Installs the C trampolines on `conf`, made from `properties`.
    func install(on conf: OpaquePointer, properties: [(String, String)]) {
        configuredCooperative = RDKafkaRebalance.isCooperative(
            strategy: properties.last { $0.0 == "partition.assignment.strategy" }?.1)
        rd_kafka_conf_set_opaque(conf, Unmanaged.passUnretained(self).toOpaque())
        rd_kafka_conf_set_log_cb(conf) { handle, level, facility, text in
            guard let callbacks = RDKafkaCallbacks.from(handle) else { return }
            let message = text.map { String(cString: $0) } ?? ""
            let facilityName = facility.map { String(cString: $0) } ?? ""
            // Configuration warnings name properties meant for the other client kind (shared --kafka
            // flags); FAIL lines repeat what the error callback reports.
            let quiet = facilityName == "CONFWARN" || facilityName == "FAIL"
            callbacks.logger.log(
                level: quiet ? .debug : RDKafkaCallbacks.logLevel(syslog: level), "librdkafka: \(message)",
                metadata: ["kafka.facility": "\(facilityName)"])
        }
        rd_kafka_conf_set_error_cb(conf) { handle, code, reason, _ in
            guard let callbacks = RDKafkaCallbacks.from(handle) else { return }
            let text = reason.map { String(cString: $0) } ?? ""
            // Transport errors are retried by librdkafka itself; they are worth a warning, not more.
            callbacks.logger.warning(
                "kafka error",
                metadata: [
                    "kafka.error": "\(String(cString: rd_kafka_err2name(rd_kafka_resp_err_t(code))))",
                    "reason": "\(text)",
                ])
        }
        if deliveryReports {
            rd_kafka_conf_set_dr_msg_cb(conf) { handle, message, _ in
                guard let message, let opaque = message.pointee._private else { return }
                RDKafkaCallbacks.from(handle)?.acknowledged?.delivered(message.pointee)
                Unmanaged<DeliveryWaiter>.fromOpaque(opaque).takeRetainedValue().delivered(error: message.pointee.err)
            }
        }
        if rebalance != nil {
            rd_kafka_conf_set_rebalance_cb(conf) { handle, error, partitions, _ in
                guard let handle, let partitions, let callbacks = RDKafkaCallbacks.from(handle) else { return }
                let rebalance = RDKafkaRebalance(
                    handle: handle, error: error, list: partitions,
                    configuredCooperative: callbacks.configuredCooperative)
                guard let client = callbacks.client, let handler = callbacks.rebalance else {
                    // A client being destroyed: answer as librdkafka would without a callback.
                    if case .assign = rebalance.kind { rebalance.accept() } else { rebalance.release() }
                    return
                }
                handler(client, rebalance)
            }
        }
        if statistics != nil {
            rd_kafka_conf_set_stats_cb(conf) { handle, json, length, _ in
                guard let json, let callbacks = RDKafkaCallbacks.from(handle) else { return 0 }
                let text = json.withMemoryRebound(to: UInt8.self, capacity: length) {
                    String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
                }
                callbacks.statistics?(text)
                return 0  // librdkafka frees the JSON
            }
        }
    }

    static func logLevel(syslog level: Int32) -> Logger.Level {
        switch level {
        case ...3: return .error
        case 4: return .warning
        case 5, 6: return .info
        default: return .debug
        }
    }
}
