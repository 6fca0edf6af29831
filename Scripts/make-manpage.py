#!/usr/bin/env python3
"""Writes disckit(1) in roff from the command tree itself.

Reads the JSON that `disckit --experimental-dump-help` prints (swift-argument-parser's
description of every command, argument and option) on standard input, or runs the program named
by the first argument, and prints a man page: NAME, SYNOPSIS, DESCRIPTION, one subsection per
command with its options, EXIT STATUS. Nothing is written by hand, so the page follows the code.
"""
import json
import subprocess
import sys


def roff(text):
    """Escapes text for roff: backslashes, and a leading dot or quote on a line."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "\n".join(("\\&" + line) if line[:1] in (".", "'") else line for line in text.split("\n"))


def names(argument):
    parts = []
    for name in argument.get("names", []):
        prefix = "-" if name["kind"] in ("short", "longWithSingleDash") else "--"
        parts.append(prefix + name["name"])
    return parts


def synopsis(argument):
    value = argument.get("valueName", "")
    if argument["kind"] == "positional":
        text = "<" + value + ">"
    else:
        preferred = argument.get("preferredName") or argument["names"][0]
        prefix = "-" if preferred["kind"] in ("short", "longWithSingleDash") else "--"
        text = prefix + preferred["name"]
        if argument["kind"] == "option":
            text += " <" + value + ">"
    if argument.get("isRepeating"):
        text += " ..."
    return "[" + text + "]" if argument.get("isOptional") else text


def visible(arguments):
    return [a for a in arguments or [] if a.get("shouldDisplay", True)
            and not ({"help", "version"} & {n["name"] for n in a.get("names", [])})]


def options_section(arguments, out):
    for argument in visible(arguments):
        if argument["kind"] == "positional":
            label = "<" + argument.get("valueName", "") + ">"
        else:
            label = ", ".join(names(argument))
            if argument["kind"] == "option":
                label += " <" + argument.get("valueName", "") + ">"
        out.append(".TP")
        out.append("\\fB" + roff(label) + "\\fR")
        text = argument.get("abstract", "")
        if argument.get("defaultValue") is not None and argument["kind"] != "flag":
            text += " (default: " + str(argument["defaultValue"]) + ")"
        out.append(roff(text))
        if argument.get("discussion"):
            out.append(".IP")
            discussion = argument["discussion"]
            if isinstance(discussion, dict):
                discussion = discussion.get("staticText", "") or ""
            out.append(roff(str(discussion)))


def page(tree, version):
    root = tree["command"]
    name = root["commandName"]
    out = [
        '.TH "%s" "1" "" "%s %s" "User Commands"' % (name.upper(), name, version),
        ".SH NAME",
        roff(name) + " \\- " + roff(root.get("abstract", "")),
        ".SH SYNOPSIS",
        ".B " + roff(name),
        roff("<command> [<options>]"),
        ".SH DESCRIPTION",
        roff(root.get("discussion", "")),
        ".SH COMMANDS",
    ]
    for command in root.get("subcommands", []):
        if not command.get("shouldDisplay", True) or command["commandName"] == "help":
            continue
        out.append('.SS "' + roff(name + " " + command["commandName"]) + '"')
        usage = " ".join(synopsis(a) for a in visible(command.get("arguments")))
        out.append(".B " + roff(name + " " + command["commandName"]))
        out.append(roff(usage))
        out.append(".PP")
        out.append(roff(command.get("abstract", "")))
        if command.get("discussion"):
            out.append(".PP")
            out.append(roff(command["discussion"]))
        options_section(command.get("arguments"), out)
    out += [
        ".SH EXIT STATUS",
        roff("sysexits(3): 0 ok, 64 usage, 65 malformed input, 66 cannot open input, "
             "69 helper program missing, 73 cannot create output, 74 I/O error."),
        ".SH SEE ALSO",
        roff("disckit help <command>; the DiscKit documentation (DocC) in the source repository."),
    ]
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) > 1:
        program = sys.argv[1]
        dump = subprocess.run([program, "--experimental-dump-help"], check=True,
                              capture_output=True, text=True).stdout
        version = subprocess.run([program, "--version"], check=True,
                                 capture_output=True, text=True).stdout.strip()
    else:
        dump, version = sys.stdin.read(), ""
    sys.stdout.write(page(json.loads(dump), version))


if __name__ == "__main__":
    main()
