import CDVDNav
import DiscKit

#if canImport(Glibc)
  import Glibc
#endif

extension Reference.DVDNav {
  /// One button as libdvdread's `navRead_PCI` parses it (`btni_t`).
  public struct Button: Sendable, Hashable {
    public var x: ClosedRange<Int>
    public var y: ClosedRange<Int>
    public var up: Int
    public var down: Int
    public var left: Int
    public var right: Int
    public var autoAction: Int
    public var command: UInt64
  }

  /// The highlight status (`hli_ss & 3`) and the `btn_ns` buttons of a navigation pack's PCI.
  public static func buttons(sector: [UInt8]) -> (status: Int, buttons: [Button])? {
    guard let pci = pci(sector: sector) else { return nil }
    let count = min(36, Int(pci.hli.hl_gi.btn_ns))
    return (Int(pci.hli.hl_gi.hli_ss & 3), Array(slots(pci).prefix(count)))
  }

  /// The button groups of a navigation pack's PCI as `navRead_PCI` parses them: `btngr_ns`, the
  /// three `btngrN_dsp_ty`, `btn_ns` and all 36 `btni_t` slots.
  public static func buttonGroups(sector: [UInt8]) -> (
    count: Int, types: [Int], buttonCount: Int, slots: [Button]
  )? {
    guard let pci = pci(sector: sector) else { return nil }
    let gi = pci.hli.hl_gi
    return (
      Int(gi.btngr_ns), [Int(gi.btngr1_dsp_ty), Int(gi.btngr2_dsp_ty), Int(gi.btngr3_dsp_ty)],
      Int(gi.btn_ns), slots(pci)
    )
  }

  /// The PCI of a 2048-byte navigation pack as `navRead_PCI` parses it.
  static func pci(sector: [UInt8]) -> pci_t? {
    guard sector.count >= 2048 else { return nil }
    var bytes = sector
    var pci = pci_t()
    bytes.withUnsafeMutableBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      navRead_PCI(&pci, base + 0x2D)
    }
    return pci
  }

  /// All 36 `btni_t` slots of `pci` as ``Button``s.
  static func slots(_ pci: pci_t) -> [Button] {
    Mirror(reflecting: pci.hli.btnit).children.compactMap { $0.value as? btni_t }.map { b in
      var command: UInt64 = 0
      for byte in Mirror(reflecting: b.cmd.bytes).children.compactMap({ $0.value as? UInt8 }) {
        command = command << 8 | UInt64(byte)
      }
      return Button(
        x: Int(min(b.x_start, b.x_end))...Int(max(b.x_start, b.x_end)),
        y: Int(min(b.y_start, b.y_end))...Int(max(b.y_start, b.y_end)),
        up: Int(b.up), down: Int(b.down), left: Int(b.left), right: Int(b.right),
        autoAction: Int(b.auto_action_mode), command: command)
    }
  }

  /// Where libdvdnav ends up after a path of button presses.
  public enum Outcome: Sendable, Hashable {
    /// The first cell of a title (disc title number, PGC number in the title set, cell).
    case title(title: Int, programChain: Int, cell: Int)
    /// A menu with `buttons` buttons, waiting for a press.
    case menu(buttons: Int)
    /// Playback stopped.
    case stop
    /// The block limit was reached.
    case limit
  }

  /// Drives libdvdnav from First Play (`dvdnav_get_next_block`, skipping stills and waits): at
  /// each navigation packet in a menu domain whose PCI has buttons, presses the next button of
  /// `buttons` with `dvdnav_button_select_and_activate`; so it does at an infinite still in the
  /// title domain whose PCI has buttons (a menu authored as a title) while presses remain. After
  /// the last press, reports the first title cell reached (`DVDNAV_CELL_CHANGE` in the VTS
  /// domain, with `dvdnav_current_title_program`), or the next menu with buttons, or the stop.
  public static func follow(path: String, buttons: [Int], maxBlocks: Int = 100_000)
    throws(DiscKitError) -> Outcome
  {
    var reached: Outcome?
    let end = try drive(path: path, buttons: buttons, maxBlocks: maxBlocks) { nav, event in
      var title: Int32 = 0
      var pgcn: Int32 = 0
      var pgn: Int32 = 0
      dvdnav_current_title_program(nav, &title, &pgcn, &pgn)
      let cell = event.withUnsafeBytes { $0.loadUnaligned(as: Int32.self) }
      reached = .title(title: Int(title), programChain: Int(pgcn), cell: Int(cell))
      return false
    }
    if let reached { return reached }
    switch end {
    case .menu(let buttons): return .menu(buttons: buttons)
    case .stop: return .stop
    case .limit, .titleCell: return .limit
    case .failed(let message):
      throw readError(message)
    }
  }

  /// How ``drive(path:buttons:maxBlocks:atTitleCell:)`` ended.
  enum DriveEnd {
    /// A menu with this many buttons after the last press.
    case menu(Int)
    /// `DVDNAV_STOP`.
    case stop
    /// The block limit.
    case limit
    /// The title-cell visitor asked to stop.
    case titleCell
    /// `dvdnav_get_next_block` failed with this message.
    case failed(String)
  }

  /// The error of a failed `dvdnav_get_next_block`.
  static func readError(_ message: String) -> DiscKitError {
    DiscKitError(.io, "libdvdnav", at: nil, "dvdnav_get_next_block: \(message)")
  }

  /// The one libdvdnav event loop of the reference drivers: opens `path`, plays from First Play
  /// (`dvdnav_get_next_block`, skipping stills and waits), presses the next of `buttons` at each
  /// navigation packet in a menu domain whose PCI shows buttons and at an infinite title-domain
  /// still whose PCI shows buttons (a menu authored as a title) while presses remain, and after
  /// the last press calls `atTitleCell` at each `DVDNAV_CELL_CHANGE` in the VTS domain with the
  /// handle and the event's bytes (`dvdnav_cell_change_event_t`); it goes on while that returns
  /// `true`. Ends at the next menu with buttons after the last press, the stop, the block limit
  /// or a failed read. With `seed`, `srand(seed)` follows `dvdnav_open` (which seeds `rand()`,
  /// the draws of `rnd`, from the clock): a run draws its `rnd` outcomes from that seed (as long
  /// as no other thread calls `rand` or `srand` meanwhile).
  static func drive(
    path: String, buttons: [Int], maxBlocks: Int, seed: UInt32? = nil,
    atTitleCell: (_ nav: OpaquePointer, _ event: [UInt8]) -> Bool
  ) throws(DiscKitError) -> DriveEnd {
    var handle: OpaquePointer?
    guard dvdnav_open(&handle, path) == DVDNAV_STATUS_OK, let nav = handle else {
      throw DiscKitError(.cannotOpen, "libdvdnav", at: nil, "dvdnav_open failed for \(path)")
    }
    defer { dvdnav_close(nav) }
    // libdvdnav seeds rand() from the clock in dvdnav_open and draws `rnd` with it.
    if let seed { srand(seed) }
    var buffer = [UInt8](repeating: 0, count: 2048)
    var pending = buttons[...]
    for _ in 0..<maxBlocks {
      var event: Int32 = 0
      var length: Int32 = 0
      let status = buffer.withUnsafeMutableBufferPointer {
        dvdnav_get_next_block(nav, $0.baseAddress, &event, &length)
      }
      guard status == DVDNAV_STATUS_OK else {
        return .failed(dvdnav_err_to_string(nav).map { String(cString: $0) } ?? "?")
      }
      switch event {
      case DVDNAV_NAV_PACKET:
        guard dvdnav_is_domain_vts(nav) != 1, let pci = dvdnav_get_current_nav_pci(nav),
          pci.pointee.hli.hl_gi.btn_ns > 0, pci.pointee.hli.hl_gi.hli_ss & 3 != 0
        else { break }
        guard let next = pending.popFirst() else {
          return .menu(Int(pci.pointee.hli.hl_gi.btn_ns))
        }
        dvdnav_button_select_and_activate(nav, pci, Int32(next))
      case DVDNAV_STILL_FRAME:
        if !pending.isEmpty, let pci = titleStillMenu(nav, buffer), let next = pending.popFirst() {
          dvdnav_button_select_and_activate(nav, pci, Int32(next))
        } else {
          dvdnav_still_skip(nav)
        }
      case DVDNAV_WAIT:
        dvdnav_wait_skip(nav)
      case DVDNAV_STOP:
        return .stop
      case DVDNAV_CELL_CHANGE:
        guard pending.isEmpty, dvdnav_is_domain_vts(nav) == 1 else { break }
        if !atTitleCell(nav, buffer) { return .titleCell }
      default:
        break
      }
    }
    return .limit
  }

  /// The PCI of an infinite still in the title domain whose buttons are shown (a menu authored
  /// as a title), at a `DVDNAV_STILL_FRAME` event whose `dvdnav_still_event_t` is in `event`.
  static func titleStillMenu(_ nav: OpaquePointer, _ event: [UInt8]) -> UnsafeMutablePointer<pci_t>?
  {
    let length = event.withUnsafeBytes { $0.loadUnaligned(as: Int32.self) }
    guard length == 0xFF, dvdnav_is_domain_vts(nav) == 1, let pci = dvdnav_get_current_nav_pci(nav),
      pci.pointee.hli.hl_gi.btn_ns > 0, pci.pointee.hli.hl_gi.hli_ss & 3 != 0
    else { return nil }
    return pci
  }

  /// Drives libdvdnav as ``follow(path:buttons:maxBlocks:)`` does, pressing all of `buttons`,
  /// and lists the disc titles whose cells play after the last press (each title once per
  /// visit, in order) until the next menu with buttons, the stop, the block limit or a failed
  /// read.
  public static func titlesPlayed(path: String, buttons: [Int], maxBlocks: Int = 100_000)
    throws(DiscKitError) -> [Int]
  {
    var titles: [Int] = []
    _ = try drive(path: path, buttons: buttons, maxBlocks: maxBlocks) { nav, _ in
      var title: Int32 = 0
      var part: Int32 = 0
      dvdnav_current_title_info(nav, &title, &part)
      if titles.last != Int(title) { titles.append(Int(title)) }
      return true
    }
    return titles
  }
}
