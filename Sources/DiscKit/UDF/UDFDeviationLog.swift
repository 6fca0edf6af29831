import Synchronization

/// What a UDF volume deviates from the specification in, where DiscKit reads it anyway because
/// the meaning is unambiguous and the reference (libudfread) reads it the same way. Filled as
/// files are opened; shown by `disckit info`. Thread-safe; keeps at most ``capacity`` distinct
/// notes.
final class UDFDeviationLog: Sendable {
  static let capacity = 16
  private let notes = Mutex<[String]>([])

  func record(_ note: String) {
    notes.withLock { notes in
      if notes.count < Self.capacity, !notes.contains(note) { notes.append(note) }
    }
  }

  var all: [String] { notes.withLock { $0 } }
}
