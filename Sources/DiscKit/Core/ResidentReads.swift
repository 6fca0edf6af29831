/// Reads that must not wait for the disk.
///
/// Within `ResidentReads.$only.withValue(true) { ... }`, a ``FileByteSource`` (and every source
/// built on one: images, clips, titles on either timeline) returns only bytes the operating
/// system's page cache holds (Linux `preadv2` with `RWF_NOWAIT`); a read that would wait for the
/// disk throws ``DiscKitError/Code/wouldBlock`` instead, and so does every read where the system
/// cannot tell (other systems, old kernels). A server uses it to answer a small range of a disc
/// its clients are playing on the thread that received the request, and goes to its thread pool
/// only when the bytes are not in memory:
///
/// ```swift
/// do {
///   try ResidentReads.$only.withValue(true) { _ = try title.readFully(at: offset, into: buffer) }
/// } catch let error as DiscKitError where error.code == .wouldBlock {
///   // read on a thread that may block
/// }
/// ```
///
/// Sources that DiscKit does not implement ignore the setting.
public enum ResidentReads {
  /// Whether reads in this task may return only page-cached bytes (default: false).
  @TaskLocal public static var only = false
}
