import Foundation

/// The keys requests to the store are signed with.
package struct S3Credentials: Sendable, Equatable {
    var accessKeyID: String
    var secretAccessKey: String
    /// For temporary credentials (`AWS_SESSION_TOKEN`): sent as `x-amz-security-token`.
    var sessionToken: String?

    package init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }

    /// From `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and `AWS_SESSION_TOKEN`; else from the
    /// shared credentials file (`AWS_SHARED_CREDENTIALS_FILE`, or `~/.aws/credentials`) and its
    /// profile `AWS_PROFILE` (`default`). Throws, naming where it looked, when neither has keys.
    static func resolve(environment: [String: String]) throws -> S3Credentials {
        if let id = environment["AWS_ACCESS_KEY_ID"], !id.isEmpty {
            guard let secret = environment["AWS_SECRET_ACCESS_KEY"], !secret.isEmpty else {
                throw ObjectStoreError.configuration("AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not")
            }
            let token = environment["AWS_SESSION_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
            return S3Credentials(accessKeyID: id, secretAccessKey: secret, sessionToken: token)
        }
        let path =
            environment["AWS_SHARED_CREDENTIALS_FILE"]
            ?? (environment["HOME"].map { "\($0)/.aws/credentials" } ?? "~/.aws/credentials")
        let profile = environment["AWS_PROFILE"] ?? "default"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ObjectStoreError.configuration(
                "no credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or write them to \(path)")
        }
        return try fromCredentialsFile(text, profile: profile, path: path)
    }

    /// The keys of `profile` in a shared credentials file (INI: `[profile]`, `key = value`).
    static func fromCredentialsFile(_ text: String, profile: String, path: String) throws -> S3Credentials {
        var section: String?
        var values: [String: String] = [:]
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") && line.hasSuffix("]") {
                section = String(line.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
                continue
            }
            guard section == profile, let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            values[key] = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        }
        guard let id = values["aws_access_key_id"], let secret = values["aws_secret_access_key"] else {
            throw ObjectStoreError.configuration(
                "\(path) has no aws_access_key_id and aws_secret_access_key in [\(profile)]")
        }
        return S3Credentials(accessKeyID: id, secretAccessKey: secret, sessionToken: values["aws_session_token"])
    }
}
