import ArtpipeSupport
import Foundation

/// An S3 implementation the tests run against, over HTTP on 127.0.0.1: Ceph's RADOS Gateway
/// (a fresh cluster from `scripts/ceph-rgw.sh`, the real thing), or moto (a light stand-in
/// from PyPI, for quick checks of single requests). Stop it when done.
package final class S3TestStore: Sendable {
    package enum Kind: String, Sendable, CaseIterable, CustomStringConvertible {
        case cephGateway = "Ceph RADOS Gateway"
        case moto

        package var description: String { rawValue }

        /// The stores to test against here: `ARTPIPE_TEST_S3_STORES` (`ceph,moto`), else both.
        /// A run inside a chroot, where no cluster can start, names moto alone.
        package static var selected: [Kind] {
            let names = ProcessInfo.processInfo.environment["ARTPIPE_TEST_S3_STORES"]?.split(separator: ",")
            guard let names else { return allCases }
            return allCases.filter { kind in names.contains { kind == .moto ? $0 == "moto" : $0 == "ceph" } }
        }
    }

    package let kind: Kind
    package let endpoint: String
    /// The keys of the store's one user (moto takes any).
    package let accessKeyID: String
    package let secretAccessKey: String
    private let name: String
    private let process: ChildProcess

    package static func start(_ kind: Kind) async throws -> S3TestStore {
        let root = try ChildProcess.packageRoot().orThrow("cannot find the package root")
        let name = UniqueName.make("s3")
        let output = FileManager.default.temporaryDirectory.appendingPathComponent(name)
        let (key, secret) = ("ARTPIPE\(name.filter(\.isNumber))", "secret-\(name)")
        let arguments: [String]
        switch kind {
        case .cephGateway:
            guard getuid() == 0 else {
                throw S3TestStoreError("the Ceph gateway's tests need root (debootstrap, chroot); run them as root")
            }
            arguments = ["bash", root.appendingPathComponent("scripts/ceph-rgw.sh").path, "start", name, key, secret]
        case .moto:
            arguments = [TestPython.path, root.appendingPathComponent("Tests/Servers/s3_moto_server.py").path]
        }
        let process = try ChildProcess(
            executableURL: URL(fileURLWithPath: "/usr/bin/env"), arguments: arguments, outputURL: output)
        var endpoint = ""
        // The first start of the gateway makes its Debian root (about a minute).
        try await waitUntil("\(kind.rawValue) to answer", timeout: .seconds(300)) {
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            for line in text.split(separator: "\n") {
                if line.hasPrefix("endpoint: ") { endpoint = String(line.dropFirst("endpoint: ".count)) }
                if line.hasPrefix("port: ") { endpoint = "http://127.0.0.1:\(line.dropFirst("port: ".count))" }
            }
            return !endpoint.isEmpty || !process.isRunning
        }
        guard !endpoint.isEmpty else {
            throw S3TestStoreError("\(kind.rawValue) did not start: \(process.outputTail(lines: 20))")
        }
        return S3TestStore(
            kind: kind, endpoint: endpoint, accessKeyID: key, secretAccessKey: secret, name: name, process: process)
    }

    private init(
        kind: Kind, endpoint: String, accessKeyID: String, secretAccessKey: String, name: String,
        process: ChildProcess
    ) {
        self.kind = kind
        self.endpoint = endpoint
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.name = name
        self.process = process
    }

    /// Takes the gateway down (connections refused) or brings it back on the same port with
    /// every object kept: an outage of the store. Ceph's gateway only.
    package func setGateway(up: Bool) async throws {
        guard kind == .cephGateway, let root = ChildProcess.packageRoot() else {
            throw S3TestStoreError("only Ceph's gateway can go down and come back")
        }
        // Its output to a file: the gateway the script starts would inherit a pipe and hold it.
        let log = FileManager.default.temporaryDirectory.appendingPathComponent(UniqueName.make("gateway"))
        let script = try ChildProcess(
            executableURL: URL(fileURLWithPath: "/usr/bin/env"),
            arguments: [
                "bash", root.appendingPathComponent("scripts/ceph-rgw.sh").path, up ? "gateway-up" : "gateway-down",
                name,
            ], outputURL: log)
        guard try await script.waitForExit(timeout: .seconds(150)) == 0 else {
            throw S3TestStoreError("the gateway did not go \(up ? "up" : "down"): \(script.outputTail(lines: 10))")
        }
    }

    /// Stops the store and deletes what it held.
    package func stop() {
        switch kind {
        case .moto:
            process.stop()
        case .cephGateway:
            guard let root = ChildProcess.packageRoot() else { return }
            let stopper = Process()
            stopper.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            stopper.arguments = ["bash", root.appendingPathComponent("scripts/ceph-rgw.sh").path, "stop", name]
            stopper.standardOutput = FileHandle.nullDevice
            stopper.standardError = FileHandle.nullDevice
            try? stopper.run()
            stopper.waitUntilExit()
        }
    }
}

/// A test store that could not start.
package struct S3TestStoreError: Error, CustomStringConvertible {
    package let description: String

    init(_ description: String) {
        self.description = description
    }
}

extension Optional {
    fileprivate func orThrow(_ message: String) throws -> Wrapped {
        guard let self else { throw S3TestStoreError(message) }
        return self
    }
}
