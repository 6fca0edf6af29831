import DiscKit
import Foundation

/// Trees and images the UDF reader tests build (core and oracle suites alike).
extension UDFTestImageBuilder {
  package typealias B = UDFTestImageBuilder

  package static func sampleTree(form: B.Form = .long, useFileEntry: Bool = false) -> [B.Node] {
    [
      .file(
        B.File(
          name: "index.bdmv", content: .bytes(.random(count: 278, seed: 1)), form: form,
          useFileEntry: useFileEntry)),
      .directory(
        B.Directory(
          name: "BDMV",
          children: [
            .directory(
              B.Directory(
                name: "STREAM",
                children: [
                  .file(
                    B.File(
                      name: "00001.m2ts", content: .bytes(.random(count: 300_000, seed: 2)),
                      form: form,
                      useFileEntry: useFileEntry, extentLimit: 16384)),
                  .file(
                    B.File(
                      name: "00002.m2ts", content: .bytes(.random(count: 70_000, seed: 3)),
                      form: form,
                      extentLimit: 8192, adsPerDescriptor: 2)),
                  .file(
                    B.File(
                      name: "holes.bin", content: .bytes(.random(count: 50_000, seed: 4)),
                      form: form,
                      extentLimit: 6144, holeEvery: 3)),
                ])),
            .directory(B.Directory(name: "PLAYLIST", children: [], embedded: true)),
            .file(
              B.File(
                name: "inline.txt", content: .bytes(Array("small inline file".utf8)),
                form: .embedded)),
            .file(B.File(name: "empty", content: .bytes([]), form: form)),
          ])),
      .directory(
        B.Directory(
          name: "Ünïcødé ж 日本",
          children: [
            .file(
              B.File(name: "Fé.txt", content: .bytes(.random(count: 5000, seed: 5)), form: form))
          ])),
    ]
  }

  package static func small(_ config: B.Config = B.Config(), _ tree: [B.Node]? = nil) -> B {
    let builder = B(config)
    builder.build(
      tree ?? [
        .file(
          B.File(name: "a.bin", content: .bytes(.random(count: 10_000, seed: 9)), extentLimit: 4096)
        ),
        .directory(
          B.Directory(
            name: "dir",
            children: [.file(B.File(name: "b.txt", content: .bytes(Array("bee".utf8))))])),
      ])
    return builder
  }

}
