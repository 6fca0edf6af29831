import DiscKit
import DiscKitCLI
import DiscKitTestSupport
import Testing

/// The CLI maps every error code to a sysexits(3) status (the mapping lives in the CLI, not in
/// the library).
@Suite("Exit codes", .toolThreads)
struct ExitCodeTests {
  @Test func sysexits() {
    #expect(DiscKitError.malformed("UDF File Entry", at: 0x8f800, "bad").code.exitCode == 65)
    #expect(DiscKitError.Code.truncated.exitCode == 65)
    #expect(DiscKitError.Code.notFound.exitCode == 66)
    #expect(DiscKitError.Code.cannotOpen.exitCode == 66)
    #expect(DiscKitError(.cannotCreate, "x", "y").code.exitCode == 73)
    #expect(DiscKitError.Code.alreadyExists.exitCode == 73)
    #expect(DiscKitError.Code.io.exitCode == 74)
    #expect(DiscKitError.Code.invalidArgument.exitCode == 64)
  }
}
