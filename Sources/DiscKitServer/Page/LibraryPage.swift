/// The library page `GET /` serves: one HTML document with its CSS and JavaScript inline,
/// nothing fetched from elsewhere. It lists the discs (`/discs`), a disc's titles with the
/// evidence for the main one, chapters and episodes when the titles document has them
/// (`/discs/{id}/titles`), and plays a title in a `<video>`: through Media Source Extensions fed
/// with the title's fMP4 segments (`master.m3u8`, `fmp4/…`) where the browser has them,
/// otherwise through the browser's own HLS (Safari on iOS); chapter jumps set the time, the
/// audio choice lists the renditions the browser can decode, the subtitle choice the WebVTT
/// renditions (`EXT-X-MEDIA TYPE=SUBTITLES`): their segments are fetched as the video plays
/// (again after a 503's `Retry-After` while the text is being recognised) and their cues added
/// to a text track of the video, placed by each segment's `X-TIMESTAMP-MAP`. Behind `--token`
/// the page is opened as `/?token=SECRET` and sends the token with every request it makes.
enum LibraryPage {
  static let html = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>DiscKit library</title>
    <style>
    :root { color-scheme: light dark; --accent: #3a6ea5; }
    body { font: 15px/1.4 system-ui, sans-serif; margin: 0; display: grid;
      grid-template-columns: minmax(220px, 1fr) 3fr; min-height: 100vh; }
    nav { border-right: 1px solid #8884; padding: 0.5em; overflow: auto; }
    main { padding: 0.5em 1em; overflow: auto; }
    h1 { font-size: 1.1em; margin: 0.3em 0 0.6em; }
    h2 { font-size: 1.05em; margin: 0.8em 0 0.3em; }
    ul { list-style: none; padding: 0; margin: 0; }
    li.disc, li.title { padding: 0.35em 0.5em; border-radius: 6px; cursor: pointer; }
    li.disc:hover, li.title:hover, li.selected { background: #8882; }
    .kind, .muted { color: #888; font-size: 0.85em; }
    .main-badge { background: var(--accent); color: white; border-radius: 4px; padding: 0 0.4em;
      font-size: 0.8em; margin-left: 0.4em; }
    .error { color: #c33; }
    video { width: 100%; max-height: 60vh; background: black; }
    .chapters button, .episodes button { margin: 0.15em; }
    .evidence li { font-size: 0.85em; color: #888; }
    </style>
    </head>
    <body>
    <nav><h1>Discs</h1><ul id="discs"><li class="muted">loading…</li></ul></nav>
    <main>
      <section id="disc"><p class="muted">Choose a disc.</p></section>
      <section id="player" hidden>
        <h2 id="player-title"></h2>
        <video id="video" controls playsinline></video>
        <div><label>Audio <select id="audio"></select></label> <label>Subtitles <select id="subtitles"></select></label>
          <span id="status" class="muted"></span></div>
        <div class="chapters" id="chapters"></div>
      </section>
    </main>
    <script>
    "use strict";
    const token = new URLSearchParams(location.search).get("token");
    const withToken = (url) => token ? url + (url.includes("?") ? "&" : "?") + "token=" + encodeURIComponent(token) : url;
    const el = (tag, attrs = {}, ...children) => {
      const node = document.createElement(tag);
      for (const [k, v] of Object.entries(attrs)) { if (k === "onclick") node.onclick = v; else node.setAttribute(k, v); }
      for (const child of children) node.append(child);
      return node;
    };
    const seconds = (ticks) => ticks / 90000;
    const clock = (s) => { s = Math.floor(s); const h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60;
      return (h ? h + ":" + String(m).padStart(2, "0") : m) + ":" + String(s % 60).padStart(2, "0"); };
    async function getJSON(url) {
      const reply = await fetch(withToken(url));
      const body = await reply.json();
      if (!reply.ok) throw new Error(body.error || reply.status);
      return body;
    }
    const state = { player: null };

    async function loadDiscs() {
      const list = document.getElementById("discs");
      try {
        const { discs } = await getJSON("discs");
        list.replaceChildren(...discs.map((d) => el("li", { class: "disc", "data-id": d.id, onclick: () => openDisc(d) },
          el("div", {}, d.label || d.path), el("div", { class: "kind" },
            d.error ? el("span", { class: "error" }, d.error) :
            `${d.kind} · main title ${d.mainTitle ?? "?"}` + (d.duration90k ? ` · ${clock(seconds(d.duration90k))}` : "")))));
        if (!discs.length) list.replaceChildren(el("li", { class: "muted" }, "No disc images under the served folder."));
      } catch (e) { list.replaceChildren(el("li", { class: "error" }, String(e))); }
    }

    async function openDisc(disc) {
      document.querySelectorAll("li.disc").forEach((n) => n.classList.toggle("selected", n.dataset.id === disc.id));
      const section = document.getElementById("disc");
      section.replaceChildren(el("p", { class: "muted" }, "reading the disc…"));
      try {
        const doc = await getJSON(`discs/${disc.id}/titles`);
        const titles = el("ul", { id: "titles" });
        for (const t of doc.titles.filter((t) => !t.excluded)) {
          const item = el("li", { class: "title", "data-key": t.key, onclick: () => play(disc, doc, t) },
            el("strong", {}, t.number ? `${t.number}. ${t.playlist || "title " + t.key}` : t.key),
            t.main ? el("span", { class: "main-badge" }, "main") : "",
            el("span", { class: "muted" }, ` ${t.duration || ""} · ${t.chapters.length} chapters` +
              (t.angles > 1 ? ` · ${t.angles} angles` : "")));
          titles.append(item);
        }
        const evidence = el("ul", { class: "evidence" }, ...(doc.evidence || []).map((e) =>
          el("li", {}, `${e.key}: ${e.kind}: ${e.detail}`)));
        const parts = [el("h1", {}, doc.label || disc.path),
          el("p", {}, `${doc.kind} · main title ${doc.main ?? "?"} (${doc.confidence || doc.selection}): ${doc.reason}`),
          el("h2", {}, "Titles"), titles, el("h2", {}, "Evidence"), evidence];
        const episodes = (doc.episodes && doc.episodes.episodes) || [];
        if (episodes.length) {
          parts.push(el("h2", {}, "Episodes"), el("p", { class: "muted" }, doc.episodes.reason || ""),
            el("div", { class: "episodes" }, ...episodes.map((e, i) =>
              el("button", { onclick: () => playEpisode(disc, doc, e) },
                `Episode ${e.number ?? i + 1}` + (e.duration ? ` · ${e.duration}` : "")))));
        }
        section.replaceChildren(...parts);
      } catch (e) { section.replaceChildren(el("p", { class: "error" }, String(e))); }
    }

    // An episode plays as its title from the episode's start (the titles document's
    // `episodes.episodes[]`: number, key, titleKey, start90k, duration).
    function playEpisode(disc, doc, episode) {
      const title = doc.titles.find((t) => t.key === episode.titleKey);
      if (title) play(disc, doc, title, episode.start90k ? seconds(episode.start90k) : 0);
    }

    function parseAttributes(line) {
      const out = {};
      const re = /([A-Z0-9-]+)=("[^"]*"|[^,]*)/g;
      let m;
      while ((m = re.exec(line))) out[m[1]] = m[2].replace(/^"|"$/g, "");
      return out;
    }
    function parseMedia(text, base) {
      const segments = [];
      let map = null, time = 0, duration = null;
      for (const line of text.split("\n")) {
        if (line.startsWith("#EXT-X-MAP:")) map = new URL(parseAttributes(line).URI, base).href;
        else if (line.startsWith("#EXTINF:")) duration = parseFloat(line.slice(8));
        else if (line && !line.startsWith("#")) { segments.push({ start: time, duration, url: new URL(line, base).href }); time += duration; }
      }
      return { map, segments, duration: time };
    }

    // WebVTT (an HLS segment): its cues, timed on the media timeline by X-TIMESTAMP-MAP
    // (MPEGTS, 90 kHz media time, is LOCAL's cue time).
    const vttTime = (text) => text.split(":").reduce((t, part) => t * 60 + parseFloat(part), 0);
    function parseVTT(text) {
      const blocks = text.replace(/\r\n/g, "\n").split(/\n\n+/);
      const mpegts = /MPEGTS:(\d+)/.exec(blocks[0] || ""), local = /LOCAL:([\d:.]+)/.exec(blocks[0] || "");
      const offset = (mpegts ? parseInt(mpegts[1], 10) / 90000 : 0) - (local ? vttTime(local[1]) : 0);
      const cues = [];
      for (const block of blocks) {
        const lines = block.split("\n");
        const at = lines.findIndex((l) => l.includes("-->"));
        if (at < 0) continue;
        const [from, arrow, to, ...settings] = lines[at].trim().split(/\s+/);
        if (arrow !== "-->") continue;
        cues.push({ key: lines.slice(at).join("\n"), start: vttTime(from) + offset, end: vttTime(to) + offset,
          text: lines.slice(at + 1).join("\n"), top: settings.includes("line:0") });
      }
      return cues;
    }
    // One text track per subtitle rendition (text tracks cannot be removed from a video).
    const textTracks = new Map();
    function textTrackFor(video, rendition, url) {
      if (!textTracks.has(url)) textTracks.set(url, video.addTextTrack("subtitles", rendition.NAME, rendition.LANGUAGE || ""));
      return textTracks.get(url);
    }

    // Media Source Extensions fed with the title's fMP4 segments, one SourceBuffer per track.
    class MSEPlayer {
      constructor(video, masterURL, audioURI, status) {
        this.video = video; this.master = masterURL; this.audioURI = audioURI; this.status = status;
        this.tracks = []; this.closed = false;
      }
      async open(start) {
        const text = await (await fetch(this.master)).text();
        const lines = text.split("\n");
        const variant = lines.find((l) => l.startsWith("#EXT-X-STREAM-INF:") && !/AUDIO=/.test(l)) ||
          lines.find((l) => l.startsWith("#EXT-X-STREAM-INF:"));
        const videoCodec = parseAttributes(variant).CODECS.split(",")[0];
        const videoURI = lines[lines.indexOf(variant) + 1];
        const wanted = [{ uri: videoURI, type: `video/mp4; codecs="${videoCodec}"` }];
        if (this.audioURI) wanted.push({ uri: this.audioURI.uri, type: `audio/mp4; codecs="${this.audioURI.codec}"` });
        this.source = new MediaSource();
        this.video.src = URL.createObjectURL(this.source);
        await new Promise((ok) => this.source.addEventListener("sourceopen", ok, { once: true }));
        for (const want of wanted) {
          const url = new URL(want.uri, this.master).href;
          const playlist = parseMedia(await (await fetch(url)).text(), url);
          const buffer = this.source.addSourceBuffer(want.type);
          this.tracks.push({ playlist, buffer, next: 0, busy: false });
        }
        this.source.duration = this.tracks[0].playlist.duration;
        for (const track of this.tracks) await this.append(track, await this.fetch(track.playlist.map));
        this.video.addEventListener("seeking", () => this.seek());
        this.timer = setInterval(() => this.pump(), 250);
        if (start) { this.video.currentTime = start; this.seek(); }
        this.pump();
      }
      // The subtitle rendition shown (or none): its segments near the playing time are fetched
      // by pump(), each cue added once.
      async setSubtitles(rendition) {
        for (const track of textTracks.values()) track.mode = "disabled";
        this.subtitles = null;
        if (!rendition) return;
        const url = new URL(rendition.URI, this.master).href;
        const playlist = parseMedia(await (await fetch(url)).text(), url);
        const track = textTrackFor(this.video, rendition, url.split("?")[0]);
        track.mode = "showing";
        this.subtitles = { playlist, track, fetched: new Set(), seen: new Set(), busy: false, retryAt: 0 };
        this.pumpSubtitles();
      }
      async pumpSubtitles() {
        const s = this.subtitles;
        if (!s || s.busy || this.closed || Date.now() < s.retryAt) return;
        const list = s.playlist.segments, t = this.video.currentTime;
        for (let k = this.index(s, t); k < list.length && list[k].start - t <= 30; k++) {
          if (s.fetched.has(k)) continue;
          s.busy = true;
          try {
            const reply = await fetch(list[k].url);
            if (reply.status === 503) {
              s.retryAt = Date.now() + 1000 * (parseInt(reply.headers.get("Retry-After"), 10) || 5);
              this.status.textContent = "subtitles: recognising the text…";
            } else if (!reply.ok) {
              throw new Error(`${reply.status} ${list[k].url}`);
            } else {
              for (const cue of parseVTT(await reply.text())) {
                if (s.seen.has(cue.key)) continue;
                s.seen.add(cue.key);
                const made = new VTTCue(cue.start, cue.end, cue.text);
                if (cue.top) made.line = 0;
                s.track.addCue(made);
              }
              s.fetched.add(k);
              if (this.status.textContent.startsWith("subtitles:")) this.status.textContent = "";
            }
          } catch (e) { this.status.textContent = "subtitles: " + String(e); s.retryAt = Date.now() + 5000; }
          s.busy = false;
          break;
        }
      }
      async fetch(url) {
        const reply = await fetch(url);
        if (!reply.ok) throw new Error(`${reply.status} ${url}`);
        return reply.arrayBuffer();
      }
      append(track, data) {
        return new Promise((ok, fail) => {
          track.buffer.addEventListener("updateend", ok, { once: true });
          track.buffer.addEventListener("error", fail, { once: true });
          track.buffer.appendBuffer(data);
        });
      }
      index(track, time) { // the segment playing at `time` (a track or the subtitles)
        const list = track.playlist.segments;
        let i = list.findIndex((s) => time < s.start + s.duration);
        return i < 0 ? list.length - 1 : i;
      }
      seek() {
        const t = this.video.currentTime;
        for (const track of this.tracks) {
          const b = track.buffer.buffered;
          let inside = false;
          for (let i = 0; i < b.length; i++) if (t >= b.start(i) && t < b.end(i) - 0.5) inside = true;
          if (!inside) track.next = this.index(track, t);
        }
        this.pump();
      }
      async pump() {
        if (this.closed) return;
        this.pumpSubtitles();
        for (const track of this.tracks) {
          if (track.busy || track.next >= track.playlist.segments.length) continue;
          const ahead = track.playlist.segments[track.next].start - this.video.currentTime;
          if (ahead > 30) continue;
          track.busy = true;
          const index = track.next;
          try {
            const data = await this.fetch(track.playlist.segments[index].url);
            if (this.closed) return;
            await this.append(track, data);
            if (track.next === index) track.next = index + 1;
          } catch (e) { this.status.textContent = String(e); }
          track.busy = false;
        }
        if (this.tracks.every((t) => t.next >= t.playlist.segments.length && !t.buffer.updating) &&
            this.source.readyState === "open") {
          try { this.source.endOfStream(); } catch (e) {}
        }
      }
      close() { this.closed = true; clearInterval(this.timer); }
    }

    async function play(disc, doc, title, start = 0) {
      document.querySelectorAll("li.title").forEach((n) => n.classList.toggle("selected", n.dataset.key === title.key));
      const section = document.getElementById("player");
      section.hidden = false;
      document.getElementById("player-title").textContent = `${doc.label || disc.path} · ${title.playlist || "title " + title.key}`;
      const video = document.getElementById("video");
      const status = document.getElementById("status");
      const chapters = document.getElementById("chapters");
      chapters.replaceChildren(...title.chapters.map((c) =>
        el("button", { onclick: () => { video.currentTime = seconds(c.start90k); video.play(); } },
          `${c.number} · ${clock(seconds(c.start90k))}`)));
      if (state.player) state.player.close();
      state.player = null;
      status.textContent = "";
      const master = new URL(withToken(`discs/${disc.id}/titles/${title.key}/master.m3u8`), location.href).href;
      const reply = await fetch(master);
      if (!reply.ok) {
        const body = await reply.json().catch(() => ({}));
        status.textContent = body.error || `no HLS for this title (${reply.status})`;
        video.removeAttribute("src");
        return;
      }
      const text = await reply.text();
      const renditions = text.split("\n").filter((l) => l.startsWith("#EXT-X-MEDIA:TYPE=AUDIO")).map(parseAttributes);
      const subtitleRenditions = text.split("\n").filter((l) => l.startsWith("#EXT-X-MEDIA:TYPE=SUBTITLES")).map(parseAttributes);
      const subtitles = document.getElementById("subtitles");
      subtitles.replaceChildren(el("option", { value: "-1" }, "off"),
        ...subtitleRenditions.map((r, i) => el("option", { value: String(i) }, r.NAME)));
      const showSubtitles = () => {
        const choice = subtitleRenditions[Number(subtitles.value)];
        if (state.player) { state.player.setSubtitles(choice).catch((e) => { status.textContent = "subtitles: " + String(e); }); return; }
        for (const track of video.textTracks) track.mode = choice && track.label === choice.NAME ? "showing" : "disabled";
      };
      subtitles.onchange = showSubtitles;
      // A rendition's codec: the server names its transcoded renditions aac-PID and flac-PID;
      // another is the one audio codec its group's variant lists.
      const codecOf = (r) => {
        const kind = (r.URI || "").split("?")[0].split("/").pop().split("-")[0];
        if (kind === "aac") return "mp4a.40.2";
        if (kind === "flac") return "fLaC";
        const group = text.split("\n").find((l) => l.startsWith("#EXT-X-STREAM-INF:") && l.includes(`AUDIO="${r["GROUP-ID"]}"`));
        const codecs = group ? parseAttributes(group).CODECS.split(",").slice(1) : [];
        if (codecs.length === 1) return codecs[0];
        const name = r.NAME || "";
        return name.includes("FLAC") ? "fLaC" : name.includes("E-AC-3") ? "ec-3" : name.includes("AC-3") ? "ac-3" : codecs[0] || "";
      };
      const select = document.getElementById("audio");
      const useMSE = "MediaSource" in window;
      const options = renditions.map((r) => ({ name: r.NAME, uri: r.URI, codec: codecOf(r),
        playable: !useMSE || MediaSource.isTypeSupported(`audio/mp4; codecs="${codecOf(r)}"`) }));
      select.replaceChildren(el("option", { value: "-1" }, "none"), ...options.map((o, i) => {
        const option = el("option", { value: String(i) }, o.name + (o.playable ? "" : " (not decodable by this browser)"));
        if (!o.playable) option.disabled = true;
        return option;
      }));
      const first = options.findIndex((o) => o.playable);
      select.value = String(first);
      const startPlayer = async (at) => {
        if (state.player) state.player.close();
        if (useMSE) {
          const choice = options[Number(select.value)];
          state.player = new MSEPlayer(video, master, choice, status);
          await state.player.open(at);
          showSubtitles();
        } else {
          video.src = master;
          video.addEventListener("loadedmetadata", () => { if (at) video.currentTime = at; }, { once: true });
        }
        video.play().catch(() => {});
      };
      select.onchange = () => startPlayer(video.currentTime);
      video.onerror = () => { status.textContent = "media error: " + (video.error && (video.error.message || video.error.code)); };
      await startPlayer(start);
    }

    loadDiscs();
    </script>
    </body>
    </html>
    """#
}
