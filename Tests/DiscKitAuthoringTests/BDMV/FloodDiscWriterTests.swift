@_spi(Formats) import DiscKit
import DiscKitAuthoring
import DiscKitAuthoringFixtures
import DiscKitTestSupport
import Foundation
import Testing

/// The benchmark's flood disc with its BD-J part (`FloodDiscWriter`, `jarCount`): the class files
/// it writes by hand are valid to javap, and the listing names the feature from the autostart
/// JAR as well as from the menu, while the other JARs' locators (random flood members, in
/// classes no BDJO loads) do not count.
@Suite("Flood disc with JARs", .toolThreads)
struct FloodDiscWriterTests {
  @Test(.enabled(if: Tool.has("javap"), "javap is not installed"))
  func handWrittenClassFilesAreValidToJavap() throws {
    let dir = try TemporaryDirectory("disckit-flood-class")
    let path = dir.path + "/Menu.class"
    let strings = ["bd://0.PLAYLIST:00777", "menu/background.png"]
    try Data(FloodDiscWriter.classFile(name: "com/studio/Menu", strings: strings))
      .write(to: URL(fileURLWithPath: path))
    let javap = try Tool.run("javap", ["-v", path])
    #expect(javap.status == 0, "\(javap.stderr)")
    #expect(javap.text.contains("class com.studio.Menu"))
    for text in strings {
      #expect(javap.text.contains("String \(text)") || javap.text.contains(text))
    }
    let parsed = try JavaClassFile(bytes: FloodDiscWriter.classFile(name: "a/B", strings: strings))
    #expect(parsed.className == "a/B" && Set(parsed.stringLiterals) == Set(strings))
  }

  @Test func theAutostartJARNamesTheFeature() throws {
    let dir = try TemporaryDirectory("disckit-flood-jars")
    try FloodDiscWriter.write(
      at: dir.path, floodCount: 60, feature: 41, titleCount: 3, jarCount: 4, classesPerJAR: 8)
    let jars = try FileManager.default.contentsOfDirectory(atPath: dir.path + "/BDMV/JAR")
    #expect(jars.sorted() == ["00000.jar", "00001.jar", "00002.jar", "00003.jar"])
    let list = try Disc.open(path: dir.path).titleList()
    #expect(list.mainKey == "00041", "\(list.reason)")
    #expect(list.confidence == .named, "\(list.reason)")
    #expect(
      list.evidence.contains { $0.kind == .bdj && $0.key == "00041" }, "\(list.evidence)")
    #expect(list.evidence.contains { $0.kind == .menu || $0.kind == .navigation })
  }
}
