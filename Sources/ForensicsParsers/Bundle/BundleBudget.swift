import ForensicsCore
import Foundation

/// What is left of one bundle's limits while its members are read: records, decompressed bytes
/// and time. Shared by the members of one bundle (and by the byte sources reading them).
///
/// A class because every member's byte source draws on the same account; locked because triage
/// reads several bundles at once (each with its own budget, but nothing forbids sharing one).
package final class BundleBudget: @unchecked Sendable {
    package let limits: BundleLimits
    private let deadline: ContinuousClock.Instant?
    private let lock = NSLock()
    private var bytesRead = 0
    private var recordsKept = 0

    package init(limits: BundleLimits, clock: ContinuousClock = ContinuousClock()) {
        self.limits = limits
        deadline = limits.timeLimit.map { clock.now.advanced(by: $0) }
    }

    /// Why nothing more may be read, or nil while the bundle is within its limits.
    package var exhausted: String? {
        lock.lock()
        defer { lock.unlock() }
        return exhaustedLocked()
    }

    private func exhaustedLocked() -> String? {
        if let reason = readingStoppedLocked() { return reason }
        if recordsKept >= limits.maxRecordsPerBundle {
            return "the bundle's limit of \(limits.maxRecordsPerBundle) records is reached (--max-records)"
        }
        return nil
    }

    /// Why reading must stop now (time or bytes spent), or nil.
    private func readingStoppedLocked() -> String? {
        if let deadline, ContinuousClock.now >= deadline {
            return "the bundle's time limit (\(Self.seconds(limits.timeLimit))) is reached"
        }
        if bytesRead >= limits.maxBundleBytes {
            return "the bundle's limit of \(limits.maxBundleBytes) decompressed bytes is reached (--max-bundle-size)"
        }
        return nil
    }

    /// How many more records the next file may keep.
    package var recordsLeft: Int {
        lock.lock()
        defer { lock.unlock() }
        return max(0, min(limits.maxRecordsPerFile, limits.maxRecordsPerBundle - recordsKept))
    }

    package func add(records: Int) {
        lock.lock()
        recordsKept = recordsKept.addingReportingOverflow(max(0, records)).partialValue
        lock.unlock()
    }

    /// Counts bytes read; throws once the bundle is over its byte or time limit.
    func take(bytes: Int, path: String) throws {
        lock.lock()
        defer { lock.unlock() }
        let (sum, overflow) = bytesRead.addingReportingOverflow(bytes)
        bytesRead = overflow ? Int.max : sum
        if let reason = readingStoppedLocked() {
            throw InputError.limitReached(path: path, what: reason)
        }
    }

    static func seconds(_ d: Duration?) -> String {
        guard let d else { return "none" }
        return "\(d.components.seconds) s"
    }
}

/// A byte source that charges what it delivers to a bundle's budget, so that reading stops —
/// keeping every complete line before — once the bundle's bytes or time are spent.
struct BudgetedByteSource: ByteSource {
    var base: any ByteSource
    let budget: BundleBudget
    let path: String

    mutating func nextChunk() throws -> [UInt8]? {
        guard let chunk = try base.nextChunk() else { return nil }
        try budget.take(bytes: chunk.count, path: path)
        return chunk
    }
}
