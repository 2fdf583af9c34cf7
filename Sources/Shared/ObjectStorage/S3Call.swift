/// One request of the S3 protocol and how its answer is read: made once here, sent by the
/// async methods of ``S3Client`` or waited for by its ``S3Client/Blocking`` view.
struct S3Call<Result> {
    var method: String
    /// Relative to the location's prefix; nil for the bucket itself.
    var key: String?
    var query: [(String, String)] = []
    var headers: [(String, String)] = []
    var body: [UInt8] = []
    var interpret: (S3Response) throws -> Result
}
