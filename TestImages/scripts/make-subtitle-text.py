#!/usr/bin/env python3
"""Writes subtitle streams with known text for the subtitle recognition tests (issue 30).

Usage:
  make-subtitle-text.py sup OUT.sup OUT.json LANG [--start SECONDS] [--count N] [--first K]
  make-subtitle-text.py spu OUTDIR OUT.json LANG [--start SECONDS] [--count N] [--first K]

`sup`: an HDMV PGS stream (.sup, 1920x1080): one display set per caption (epoch start, one window,
a palette of grey levels times opacity levels, one run-length object) and a clear display set
after it. Captions are drawn with PIL in white (some light yellow) with a black antialiased
outline, in several fonts and sizes (DejaVu Sans/Serif/Mono, regular, bold, oblique; Noto CJK for
Japanese), one or two lines, at the bottom or (some) at the top; some are forced
(composition object forced_on_flag).

`spu`: PNG images for spumux (720x576 PAL, no antialiasing: transparent, white fill, black outline)
and OUTDIR/spumux.xml with their times (forced ones with force="yes").

Captions K..K+N-1 of the language's list are written, one every 2 s from --start (shown 1.5 s).
OUT.json lists each caption: start, end (seconds, the display set's PTS / the SPU's times), lines,
forced, italic, font, size, position.
"""
import json
import struct
import sys

from PIL import Image, ImageDraw, ImageFont

from pgs_sup import END, ODS, PCS, PDS, WDS, rle_line, segment

DEJAVU = "/usr/share/fonts/truetype/dejavu/"
NOTO = "/usr/share/fonts/opentype/noto/"
LATIN_FONTS = [
    ("DejaVuSans.ttf", False), ("DejaVuSerif.ttf", False), ("DejaVuSans-Bold.ttf", False),
    ("DejaVuSansCondensed.ttf", False), ("DejaVuSans-Oblique.ttf", True),
    ("DejaVuSerif-Bold.ttf", False), ("DejaVuSansMono.ttf", False),
    ("DejaVuSerif-Italic.ttf", True),
]
CJK_FONTS = [("NotoSansCJK-Regular.ttc", False), ("NotoSerifCJK-Regular.ttc", False),
             ("NotoSansCJK-Bold.ttc", False)]

TEXT = {
    "eng": [
        ["Where were you last night?"],
        ["I waited for you", "until the restaurant closed."],
        ["The train leaves at seven o'clock."],
        ["Don't forget to call your mother."],
        ["We have to find the key", "before they come back."],
        ["Nobody knows what happened here."],
        ["Look at the river, it's frozen!"],
        ["He said he would never return."],
        ["Turn left after the old bridge."],
        ["Thank you for everything."],
        ["Can you hear the music", "coming from the garden?"],
        ["It was the best summer of my life."],
    ],
    "fra": [
        ["Où étais-tu hier soir ?"],
        ["Je t'ai attendu", "jusqu'à la fermeture du café."],
        ["Le train part à sept heures."],
        ["N'oublie pas d'appeler ta mère."],
        ["Il faut trouver la clé", "avant qu'ils reviennent."],
        ["Personne ne sait ce qui s'est passé."],
        ["Regarde la rivière, elle est gelée !"],
        ["Il a dit qu'il ne reviendrait jamais."],
        ["Tourne à gauche après le vieux pont."],
        ["Merci pour tout, mon frère."],
        ["Entends-tu la musique", "qui vient du jardin ?"],
        ["C'était le plus bel été de ma vie."],
    ],
    "deu": [
        ["Wo warst du gestern Abend?"],
        ["Ich habe auf dich gewartet,", "bis das Café geschlossen hat."],
        ["Der Zug fährt um sieben Uhr ab."],
        ["Vergiss nicht, deine Mutter anzurufen."],
        ["Wir müssen den Schlüssel finden,", "bevor sie zurückkommen."],
        ["Niemand weiß, was hier passiert ist."],
        ["Schau dir den Fluss an, er ist gefroren!"],
        ["Er sagte, er würde nie zurückkehren."],
        ["Biege nach der alten Brücke links ab."],
        ["Danke für alles, mein Freund."],
        ["Hörst du die Musik", "aus dem großen Garten?"],
        ["Es war der schönste Sommer meines Lebens."],
    ],
    "spa": [
        ["¿Dónde estabas anoche?"],
        ["Te esperé", "hasta que cerró el restaurante."],
        ["El tren sale a las siete en punto."],
        ["No olvides llamar a tu madre."],
        ["Tenemos que encontrar la llave", "antes de que vuelvan."],
        ["Nadie sabe lo que pasó aquí."],
        ["¡Mira el río, está congelado!"],
        ["Dijo que nunca volvería."],
        ["Gira a la izquierda después del puente."],
        ["Gracias por todo, señor."],
        ["¿Oyes la música", "que viene del jardín?"],
        ["Fue el mejor verano de mi vida."],
    ],
    "jpn": [
        ["昨日の夜はどこにいたの？"],
        ["店が閉まるまで", "ずっと待っていました。"],
        ["電車は七時に出発します。"],
        ["お母さんに電話するのを忘れないで。"],
        ["彼らが戻る前に", "鍵を見つけなければならない。"],
        ["ここで何が起きたのか誰も知らない。"],
        ["川を見て、凍っているよ！"],
        ["彼は二度と戻らないと言った。"],
        ["古い橋を渡ったら左に曲がって。"],
        ["本当にありがとうございました。"],
        ["庭から聞こえる", "音楽が聞こえますか？"],
        ["人生で一番素敵な夏でした。"],
    ],
}


def style(lang, i, dvd):
    """Font, italic flag, size (pixels), fill grey level, position, forced for caption i."""
    fonts = CJK_FONTS if lang == "jpn" else LATIN_FONTS
    font, italic = fonts[i % len(fonts)]
    sizes = [26, 30, 34] if dvd else [40, 48, 56, 64]
    size = sizes[i % len(sizes)]
    fill = 230 if i % 5 == 3 else 255   # a light yellow's luma for some
    position = "top" if i % 6 == 5 else "bottom"
    forced = i % 4 == 2
    return (NOTO if lang == "jpn" else DEJAVU) + font, font, italic, size, fill, position, forced


def render(lines, path, size, fill, stroke, antialias):
    """RGBA picture of the lines, centred, with a black outline, cropped to the ink."""
    font = ImageFont.truetype(path, size)
    spacing = size // 4
    probe = ImageDraw.Draw(Image.new("RGBA", (10, 10)))
    text = "\n".join(lines)
    box = probe.multiline_textbbox((0, 0), text, font=font, spacing=spacing, align="center",
                                   stroke_width=stroke)
    box = [int(v // 1) for v in box[:2]] + [-int(-v // 1) for v in box[2:]]
    w, h = box[2] - box[0] + 8, box[3] - box[1] + 8
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    if not antialias:
        draw.fontmode = "1"
    draw.multiline_text((4 - box[0], 4 - box[1]), text, font=font, spacing=spacing,
                        align="center", fill=(fill, fill, fill if fill == 255 else 120, 255),
                        stroke_width=stroke, stroke_fill=(0, 0, 0, 255))
    return img


# ---- PGS ----
LEVELS = 8


def quantise(img):
    """Palette indexes (0 transparent; 1 + alpha level * LEVELS + grey level) and the palette."""
    w, h = img.size
    px = img.load()
    rows = []
    for y in range(h):
        row = []
        for x in range(w):
            r, g, b, a = px[x, y]
            if a < 16:
                row.append(0)
                continue
            grey = round((0.299 * r + 0.587 * g + 0.114 * b) / 255 * (LEVELS - 1))
            alpha = round((a - 16) / 239 * (LEVELS - 1))
            row.append(1 + alpha * LEVELS + grey)
        rows.append(row)
    entries = [(0, 16, 128, 128, 0)]
    for alpha in range(LEVELS):
        for grey in range(LEVELS):
            y = round(16 + 219 * grey / (LEVELS - 1))
            a = round(16 + 239 * alpha / (LEVELS - 1))
            entries.append((1 + alpha * LEVELS + grey, y, 128, 128, a))
    return rows, entries


def write_sup(out, manifest, lang, start, count, first):
    width, height = 1920, 1080
    sets = []
    captions = []
    number = 0
    for k in range(count):
        i = first + k
        lines = TEXT[lang][i % len(TEXT[lang])]
        path, fontname, italic, size, fill, position, forced = style(lang, i, False)
        img = render(lines, path, size, fill, max(2, size // 14), True)
        ow, oh = img.size
        x = (width - ow) // 2
        y = 60 if position == "top" else height - 80 - oh
        t0 = round((start + 2 * k) * 90000)
        t1 = t0 + 135000
        rows, entries = quantise(img)
        pcs = struct.pack(">HHBHBBBB", width, height, 0x10, number, 0x80, 0, 0, 1)
        pcs += struct.pack(">HBBHH", 0, 0, 0x40 if forced else 0, x, y)
        wds = struct.pack(">BBHHHH", 1, 0, x, y, ow, oh)
        pds = struct.pack(">BB", 0, 0) + b"".join(struct.pack(">BBBBB", *e) for e in entries)
        data = b"".join(rle_line(r) for r in rows)
        # Objects longer than a segment holds go in fragments (first, middle..., last).
        total = data
        first_len = 0xFFFF - 11
        chunks = [total[:first_len]]
        rest = total[first_len:]
        while rest:
            chunks.append(rest[:0xFFFF - 4])
            rest = rest[0xFFFF - 4:]
        ods = []
        for n, chunk in enumerate(chunks):
            flag = (0x80 if n == 0 else 0) | (0x40 if n == len(chunks) - 1 else 0)
            body = struct.pack(">HBB", 0, 0, flag)
            if n == 0:
                body += (len(total) + 4).to_bytes(3, "big") + struct.pack(">HH", ow, oh)
            ods.append(segment(t0, ODS, body + chunk))
        sets += [segment(t0, PCS, pcs), segment(t0, WDS, wds), segment(t0, PDS, pds)] + ods
        sets.append(segment(t0, END, b""))
        number += 1
        clear = struct.pack(">HHBHBBBB", width, height, 0x10, number, 0x00, 0, 0, 0)
        sets += [segment(t1, PCS, clear), segment(t1, WDS, wds), segment(t1, END, b"")]
        number += 1
        captions.append({"start": t0 / 90000, "end": t1 / 90000, "startPTS": t0, "endPTS": t1,
                         "lines": lines, "forced": forced, "italic": italic, "font": fontname,
                         "size": size, "position": position})
    with open(out, "wb") as f:
        f.write(b"".join(sets))
    with open(manifest, "w") as f:
        json.dump({"language": lang, "captions": captions}, f, ensure_ascii=False, indent=1)


def write_spu(outdir, manifest, lang, start, count, first):
    captions = []
    xml = ['<subpictures format="PAL">', "  <stream>"]
    for k in range(count):
        i = first + k
        lines = TEXT[lang][i % len(TEXT[lang])]
        path, fontname, italic, size, fill, position, forced = style(lang, i, True)
        img = render(lines, path, size, 255, 2, False)
        ow, oh = img.size
        ow += ow % 2
        oh += oh % 2
        canvas = Image.new("RGBA", (ow, oh), (0, 0, 0, 0))
        # Three colours only (spumux): transparent, white fill, black outline.
        src = img.load()
        dst = canvas.load()
        for yy in range(img.size[1]):
            for xx in range(img.size[0]):
                r, g, b, a = src[xx, yy]
                if a >= 128:
                    dst[xx, yy] = (255, 255, 255, 255) if r >= 128 else (0, 0, 0, 255)
        name = f"{outdir}/{lang}-{i}.png"
        canvas.save(name)
        x = ((720 - ow) // 2) & ~1
        y = (40 if position == "top" else 576 - 50 - oh) & ~1
        t0 = start + 2 * k
        t1 = t0 + 1.5
        def clock(t):
            return "00:00:%05.2f" % t
        xml.append(f'    <spu start="{clock(t0)}" end="{clock(t1)}" image="{name}" '
                   f'xoffset="{x}" yoffset="{y}"' + (' force="yes"' if forced else "") + "/>")
        captions.append({"start": t0, "end": t1, "lines": lines, "forced": forced,
                         "italic": italic, "font": fontname, "size": size,
                         "position": position})
    xml += ["  </stream>", "</subpictures>"]
    with open(f"{outdir}/spumux-{lang}.xml", "w") as f:
        f.write("\n".join(xml) + "\n")
    with open(manifest, "w") as f:
        json.dump({"language": lang, "captions": captions}, f, ensure_ascii=False, indent=1)


def main():
    mode, out, manifest, lang = sys.argv[1:5]
    opts = sys.argv[5:]
    def opt(name, default):
        return type(default)(opts[opts.index(name) + 1]) if name in opts else default
    start, count, first = opt("--start", 1.0), opt("--count", 12), opt("--first", 0)
    if mode == "sup":
        write_sup(out, manifest, lang, start, count, first)
    else:
        write_spu(out, manifest, lang, start, count, first)


if __name__ == "__main__":
    main()
