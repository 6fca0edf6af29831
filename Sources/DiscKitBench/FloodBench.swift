@_spi(Formats) import DiscKit
import DiscKitAuthoring
import DiscKitAuthoringFixtures
import Foundation

/// Issue 18's benchmark: `disckit titles` (the evidence-first selection: the HDMV machine over
/// First Play, the Top Menu and every title, the IG menu read from its clip and each button run,
/// families over every playlist, the BD-J title's BDJO and 20 JARs of 100 classes searched for
/// locators) on a 1,000-playlist permutation flood with an IG menu, against
/// `bd_list_titles` on the same folder, both as processes (hyperfine medians and CPU time).
let floodBenchmarks: [Benchmark] = [
  Benchmark(
    name: "bluray-flood",
    summary:
      "disckit titles on a 1000-playlist permutation flood with an IG menu and 20 JARs vs bd_list_titles (hyperfine)"
  ) {
    let disckit = try Startup.disckit()
    // DISCKIT_BENCH_FLOOD_DIR: write the disc there and keep it (to profile or inspect it).
    let keep = ProcessInfo.processInfo.environment["DISCKIT_BENCH_FLOOD_DIR"]
    let dir = keep ?? NSTemporaryDirectory() + "disckit-bench-flood-\(UUID().uuidString)"
    defer { if keep == nil { try? FileManager.default.removeItem(atPath: dir) } }
    try FloodDiscWriter.write(at: dir, floodCount: 1000, feature: 777, jarCount: 20)
    // The choice first: the selection must name the feature through the menu, not by length.
    let disc = try BlurayDisc(fileSystem: try FolderFileSystem(root: dir))
    let selection = disc.smartSelection()
    print(
      "   main \(selection.main ?? "none") (\(selection.confidence?.rawValue ?? "none"), family of \(selection.familySize))"
    )
    let runs = min(Startup.runs, 30)
    let times = try Startup.hyperfineTimes(
      [[disckit, "titles", dir], ["bd_list_titles", dir]], runs: runs)
    Startup.report(
      "titles, 1000-playlist flood with an IG menu and 20 JARs", disckit: times[0].median,
      reference: times[1].median, referenceName: "bd_list_titles")
    Startup.reportCPU(
      "titles, 1000-playlist flood with an IG menu and 20 JARs", disckit: times[0].cpu,
      reference: times[1].cpu, referenceName: "bd_list_titles")
    let json = try Startup.hyperfineTimes([[disckit, "titles", "--json", dir]], runs: runs)
    Startup.report(
      "titles --json, same disc", disckit: json[0].median, reference: times[1].median,
      referenceName: "bd_list_titles")
  }
]
