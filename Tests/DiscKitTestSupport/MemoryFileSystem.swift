// The in-memory file system lives with the fuzz harnesses (which must not link Testing) and is
// re-exported here, so that tests and harnesses share one definition.
@_exported import struct DiscKitFuzzHarnesses.MemoryFileSystem
