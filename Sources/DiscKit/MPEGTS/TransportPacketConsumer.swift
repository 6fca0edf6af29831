/// Receives the packets a ``TransportPacketReader`` finds.
package protocol TransportPacketConsumer {
  /// Called for every packet, in stream order. The packet's bytes are valid only during the call.
  mutating func consume(_ packet: TransportPacket)
  /// Called when the reader locks on to packets after skipping `skippedBytes` bytes that were
  /// not packets (at the start, or after a lost sync).
  mutating func syncAcquired(at offset: Int64, format: TransportPacketFormat, skippedBytes: Int64)
  /// Called when a unit at `offset` does not start with the sync byte: the reader searches again.
  mutating func syncLost(at offset: Int64)
  /// Called by ``TransportPacketReader/finish(into:)`` when the stream ends inside a packet.
  mutating func truncatedPacket(at offset: Int64, bytes: Int)
}

extension TransportPacketConsumer {
  /// Does nothing by default.
  package mutating func syncAcquired(
    at offset: Int64, format: TransportPacketFormat, skippedBytes: Int64
  ) {}
  /// Does nothing by default.
  package mutating func syncLost(at offset: Int64) {}
  /// Does nothing by default.
  package mutating func truncatedPacket(at offset: Int64, bytes: Int) {}
}
