#!/usr/bin/env python3
"""Counts a module's public API in a symbol graph made with --include-spi-symbols: the symbols an
embedder sees (not SPI, not members of an SPI type) and those behind the `Formats` SPI.
Usage: Scripts/api-count.py .build/docs-symbols/DiscKit.symbols.json"""
import json, sys
graph = json.load(open(sys.argv[1]))
symbols = graph['symbols']
spi_tops = {s['pathComponents'][0] for s in symbols if len(s['pathComponents']) == 1 and s.get('spi')}
def hidden(s):
    return s.get('spi') or s['pathComponents'][0] in spi_tops
public = [s for s in symbols if not hidden(s)]
types = [s for s in public if len(s['pathComponents']) == 1]
print(f"{graph['module']['name']}: {len(public)} public symbols ({len(types)} top-level), "
      f"{len(symbols) - len(public)} behind @_spi(Formats)")
