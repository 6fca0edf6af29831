import CBluray
@_spi(Formats) import DiscKit

extension Reference {
  /// libbluray's `bd_read_bdjo` on the file at `path`, as a ``BDJObject`` (`nil` when libbluray
  /// rejects the file).
  ///
  /// libbluray keeps fewer bits than the format has: the icon flags are its low 8 bits, the key
  /// interest table its 11 defined bits (here in bits 31...21, as in the file), and the version
  /// is what the header says. Compare with ``libblurayView(of:)`` of DiscKit's own parse.
  @_spi(Formats)
  public static func readBDJO(path: String) -> BDJObject? {
    guard let raw = bd_read_bdjo(path) else { return nil }
    defer { bd_free_bdjo(raw) }
    let b = raw.pointee
    func text<T>(_ tuple: T, _ n: Int) -> String {
      withUnsafeBytes(of: tuple) {
        String(decoding: $0.prefix(n).prefix { $0 != 0 }, as: UTF8.self)
      }
    }
    func string(_ p: UnsafeMutablePointer<CChar>?) -> String {
      p.map { String(cString: $0) } ?? ""
    }
    let version = withUnsafeBytes(of: b.bdjo_version.bigEndian) {
      String(decoding: $0, as: UTF8.self)
    }
    let terminal = BDJObject.TerminalInfo(
      defaultFont: text(b.terminal_info.default_font, 5),
      initialHaviConfiguration: b.terminal_info.initial_havi_config_id,
      menuCallMask: b.terminal_info.menu_call_mask != 0,
      titleSearchMask: b.terminal_info.title_search_mask != 0)
    var cache: [BDJObject.CacheEntry] = []
    for i in 0..<Int(b.app_cache_info.num_item) {
      guard let item = b.app_cache_info.item?[i] else { continue }
      cache.append(
        BDJObject.CacheEntry(
          type: item.type, name: text(item.ref_to_name, 5), language: text(item.lang_code, 3)))
    }
    var playlists: [String] = []
    for i in 0..<Int(b.accessible_playlists.num_pl) {
      guard let pl = b.accessible_playlists.pl?[i] else { continue }
      playlists.append(text(pl.name, 5))
    }
    var apps: [BDJApplication] = []
    for i in 0..<Int(b.app_table.num_app) {
      guard let a = b.app_table.app?[i] else { continue }
      var profiles: [BDJApplication.Profile] = []
      for j in 0..<Int(a.num_profile) {
        guard let p = a.profile?[j] else { continue }
        profiles.append(
          BDJApplication.Profile(
            profile: p.profile_number, major: p.major_version, minor: p.minor_version,
            micro: p.micro_version))
      }
      var names: [BDJApplication.Name] = []
      for j in 0..<Int(a.num_name) {
        guard let n = a.name?[j] else { continue }
        names.append(BDJApplication.Name(language: text(n.lang, 3), name: string(n.name)))
      }
      var parameters: [String] = []
      for j in 0..<Int(a.num_param) {
        guard let p = a.param?[j] else { continue }
        parameters.append(string(p.param))
      }
      apps.append(
        BDJApplication(
          controlCode: a.control_code, type: a.type, organizationID: a.org_id,
          applicationID: a.app_id, profiles: profiles, priority: a.priority, binding: a.binding,
          visibility: a.visibility, names: names, iconLocator: string(a.icon_locator),
          iconFlags: UInt16(a.icon_flags), baseDirectory: string(a.base_dir),
          classpathExtension: string(a.classpath_extension),
          initialClassName: string(a.initial_class), parameters: parameters))
    }
    let k = b.key_interest_table
    let keyBits: [UInt32] = [
      k.vk_play, k.vk_stop, k.vk_ffw, k.vk_rew, k.vk_track_next, k.vk_track_prev, k.vk_pause,
      k.vk_still_off, k.vk_sec_audio_ena_dis, k.vk_sec_video_ena_dis, k.pg_textst_ena_dis,
    ]
    var keys: UInt32 = 0
    for (i, bit) in keyBits.enumerated() where bit != 0 { keys |= 1 << UInt32(31 - i) }
    return BDJObject(
      version: version, terminalInfo: terminal, cache: cache,
      accessiblePlaylists: BDJObject.AccessiblePlaylists(
        accessToAll: b.accessible_playlists.access_to_all_flag != 0,
        autostartFirstPlaylist: b.accessible_playlists.autostart_first_playlist_flag != 0,
        playlists: playlists),
      applications: apps, keyInterestTable: keys, fileAccessInfo: string(b.file_access_info.path))
  }

  /// DiscKit's parse of a BDJO reduced to what libbluray keeps (see ``readBDJO(path:)``).
  @_spi(Formats)
  public static func libblurayView(of object: BDJObject) -> BDJObject {
    var view = object
    view.keyInterestTable &= 0xFFE0_0000
    for i in view.applications.indices {
      view.applications[i].iconFlags &= 0xFF
    }
    return view
  }
}
