#!/usr/bin/env python3
"""Fails when a target imports a module it does not declare in Package.swift.

SwiftPM makes every module of a target's transitive closure importable, so `import SOQL` in a
target that only depends on SyncConfig builds, and the layering silently erodes. This check reads
the declared dependencies from `swift package dump-package` and every `import` line of every Swift
file of each target (sources, tests, benchmarks), and reports each import that is neither declared
nor a toolchain module. Exit 0 when clean, 1 with one line per offending import.
"""
import json
import os
import re
import subprocess
import sys

# Modules that come with the toolchain, importable by every target.
TOOLCHAIN = {
    "Foundation", "FoundationEssentials", "FoundationInternationalization", "FoundationNetworking",
    "Dispatch", "Glibc", "Musl", "Darwin", "XCTest", "Testing", "Synchronization", "_Concurrency",
    "Swift", "os", "CoreFoundation", "RegexBuilder", "Observation", "_StringProcessing",
}

IMPORT = re.compile(
    r"^\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?"
    r"import\s+(?:(?:struct|class|enum|protocol|typealias|func|var|let)\s+)?([A-Za-z_][A-Za-z0-9_]*)"
)


def declared(target):
    names = set()
    for dependency in target.get("dependencies", []):
        for kind in ("byName", "target", "product"):
            if kind in dependency:
                names.add(dependency[kind][0])
    return names


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    package = json.loads(
        subprocess.run(
            ["swift", "package", "--package-path", root, "dump-package"],
            check=True, capture_output=True, text=True,
        ).stdout
    )
    problems = []
    checked = 0
    for target in package["targets"]:
        if target["type"] in ("system", "binary", "plugin", "macro"):
            continue
        name = target["name"]
        path = target.get("path") or os.path.join("Tests" if target["type"] == "test" else "Sources", name)
        directory = os.path.join(root, path)
        allowed = declared(target) | TOOLCHAIN | {name}
        for folder, _, files in os.walk(directory):
            for file in sorted(files):
                if not file.endswith(".swift"):
                    continue
                file_path = os.path.join(folder, file)
                with open(file_path, encoding="utf-8") as handle:
                    for number, line in enumerate(handle, 1):
                        match = IMPORT.match(line)
                        if not match:
                            continue
                        checked += 1
                        module = match.group(1)
                        if module not in allowed:
                            relative = os.path.relpath(file_path, root)
                            problems.append(
                                f"{relative}:{number}: error: target '{name}' imports '{module}' "
                                f"without declaring it in Package.swift; add it to the target's dependencies"
                            )
    for problem in problems:
        print(problem)
    print(f"import check: {checked} import(s) in {len(package['targets'])} target(s), {len(problems)} undeclared")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
