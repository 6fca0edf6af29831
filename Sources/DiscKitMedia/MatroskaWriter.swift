import CFFmpeg
import DiscKit
import DiscKitOutput

/// Writes a title to a Matroska file, losslessly, through libavformat: every track of the
/// ``MatroskaTitle`` with its language and default flag, the chapters, the segment title, and
/// timestamps on the continuous title timeline starting at 0.
///
/// Each piece (Blu-ray clip, DVD cell) is demuxed on its own and its timestamps are mapped with
/// ``MatroskaPiece/titleTime(ofPTS:)``, modulo 2^33, so clips in different PTS epochs and clips
/// that cross the 33-bit wrap make one timeline. Packets presented before a piece's in-time or
/// at or after its out-time are dropped, like a player does, but for audio frames before the
/// in-time that play past the audio before them (the join's last milliseconds, which the next
/// clip's bytes carry; the frame playing at the title's first picture); so are packets whose
/// decode time would go back on their track (a seamless join's overlap). When audio starts
/// before the title's first picture, the file's time 0 is that audio's start: every track and
/// the chapters after the first move by this lead.
///
/// Codecs are checked before anything is written: a track Matroska cannot carry is a
/// ``DiscKitError/Code/unsupported`` error naming the track, and the destination is not created.
/// Blu-ray and DVD LPCM are converted losslessly to little-endian PCM.
///
/// The writer is synchronous and uses no shared state: servers can run several at once, each on
/// its own thread or task.
public enum MatroskaWriter {
  /// What a write did.
  public struct Report: Sendable, Hashable, Codable {
    /// One written track.
    public struct Track: Sendable, Hashable, Codable {
      /// The track as planned.
      public var track: MatroskaTrack
      /// The codec read by libavformat (e.g. `h264`, `pcm_bluray`).
      public var inputCodec: String
      /// The codec written (e.g. `h264`, `pcm_s24le`).
      public var outputCodec: String
      /// Packets written.
      public var packets: Int
    }
    /// The tracks written, in file order.
    public var tracks: [Track]
    /// Planned tracks the title's bytes do not contain (left out).
    public var missingTracks: [MatroskaTrack]
    /// Packets dropped: outside their piece's in/out times, without timestamps, or going back.
    public var droppedPackets: Int
    /// The title bytes read.
    public var bytesRead: Int64
  }

  /// Writes `title` to `path` atomically (a temporary file renamed on success; nothing is left
  /// behind on failure). `-` streams to standard output (no cues).
  ///
  /// - Parameters:
  ///   - overwrite: replace an existing file (the CLI's `--force`).
  ///   - progress: called with the title bytes read so far and the total.
  /// - Throws: ``DiscKitError/Code/unsupported`` naming a track whose codec Matroska cannot
  ///   carry (before the destination is created); ``DiscKitError/Code/alreadyExists`` when the
  ///   file exists and `overwrite` is false; read, demux and write errors.
  @discardableResult
  public static func write(
    _ title: MatroskaTitle, toPath path: String, overwrite: Bool,
    progress: ((Int64, Int64) -> Void)? = nil
  ) throws(DiscKitError) -> Report {
    let session = try MatroskaSession(title: title, progress: progress)
    let writer = try AtomicFileWriter(destination: path, overwrite: overwrite)
    do {
      let report = try session.run(writer: writer)
      try writer.commit()
      return report
    } catch {
      writer.abort()
      throw error
    }
  }

  /// Writes `title` into an open writer (not committed: the caller commits or aborts).
  @discardableResult
  public static func write(
    _ title: MatroskaTitle, to writer: AtomicFileWriter,
    progress: ((Int64, Int64) -> Void)? = nil
  ) throws(DiscKitError) -> Report {
    let session = try MatroskaSession(title: title, progress: progress)
    return try session.run(writer: writer)
  }

  /// The tracks `title` would be written with (codecs read from its first piece), without
  /// writing anything.
  ///
  /// - Throws: ``DiscKitError/Code/unsupported`` naming a track Matroska cannot carry.
  public static func plan(_ title: MatroskaTitle) throws(DiscKitError) -> Report {
    try MatroskaSession(title: title, progress: nil).emptyReport()
  }

  /// Whether Matroska (as libavformat writes it) can carry the codec libavformat calls `name`
  /// (e.g. `h264`, `ac3`, `hdmv_pgs_subtitle`), directly or after DiscKit's LPCM conversion.
  public static func canCarry(codecNamed name: String) -> Bool {
    guard let descriptor = avcodec_descriptor_get_by_name(name) else { return false }
    return MatroskaSession.canCarry(descriptor.pointee.id)
  }
}
