import CUDFRead
import DiscKit
import DiscKitAuthoringTestSupport

/// The authoring helpers that read images with libudfread directly.
extension AuthoringFixtures {
  /// Bytes `offset..<offset+count` of `path` in `image`, read with libudfread (seek + read).
  static func libudfreadRead(image: String, path: String, offset: Int64, count: Int) -> [UInt8]? {
    guard let udf = udfread_init() else { return nil }
    defer { udfread_close(udf) }
    guard udfread_open(udf, image) >= 0, let file = udfread_file_open(udf, path) else { return nil }
    defer { udfread_file_close(file) }
    guard udfread_file_seek(file, offset, Int32(UDF_SEEK_SET)) == offset else { return nil }
    var out = [UInt8](repeating: 0, count: count)
    var done = 0
    while done < count {
      let got = out.withUnsafeMutableBytes { (raw: UnsafeMutableRawBufferPointer) in
        udfread_file_read(file, raw.baseAddress.map { $0 + done }, count - done)
      }
      if got <= 0 { break }
      done += Int(got)
    }
    return Array(out[0..<done])
  }

  /// The absolute block libudfread maps block `block` of `path` to.
  static func libudfreadBlock(image: String, path: String, block: UInt32) -> UInt32? {
    guard let udf = udfread_init() else { return nil }
    defer { udfread_close(udf) }
    guard udfread_open(udf, image) >= 0, let file = udfread_file_open(udf, path) else { return nil }
    defer { udfread_file_close(file) }
    return udfread_file_lba(file, block)
  }
}
