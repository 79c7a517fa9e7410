"""Compiled builds of hot modules (mypyc), used only while they match their sources.

`make setup` compiles the modules listed in the Makefile (``NATIVE``: the Chouine engine)
with mypyc into ``src/choux/_native/`` (git-ignored), with a manifest of the SHA-256 of
every compiled source. A package that has compiled modules calls `activate` first thing in
its ``__init__``: when every source still matches the manifest (same Python, same bytes),
the build directory goes in front of the package's ``__path__`` and the compiled modules
are imported instead of the ``.py`` files; otherwise nothing changes and the ``.py`` files
run. An edited source is therefore never hidden by a stale build: it runs interpreted
until ``make`` compiles it again. ``CHOUX_NATIVE=0`` turns compiled modules off.

    .venv/bin/python -m choux.engine.native [--train MODULE] src/choux/games/chouine/state.py ...
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any

#: the package root (``src/choux``) and where compiled modules and their manifest go
PACKAGE_ROOT = Path(__file__).resolve().parents[1]
BUILD_DIR = PACKAGE_ROOT / "_native"
MANIFEST = BUILD_DIR / "manifest.json"
#: the name of mypyc's shared library of the group (a top-level module in BUILD_DIR)
GROUP = "choux_native"

_active: dict[str, bool] = {}


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _tag() -> str:
    """What a build is only valid for: this interpreter's version and ABI."""
    return f"{sys.implementation.cache_tag}-{sys.version_info[:3]}"


def _fresh_manifest() -> dict[str, str] | None:
    """The compiled modules (dotted name -> source path) when the build matches this
    interpreter and every compiled source and every module they import, else None."""
    try:
        data = json.loads(MANIFEST.read_text(encoding="utf-8"))
        if data.get("tag") != _tag():
            return None
        sources: dict[str, str] = data["sources"]
        depends: dict[str, str] = data["depends"]
        for relative, digest in {**sources, **depends}.items():
            if _digest(PACKAGE_ROOT.parent / relative) != digest:
                return None
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return {_module_name(relative): relative for relative in sources}


def _imported_sources(relative: str) -> set[str]:
    """The ``choux`` modules (paths under ``src``) that a source imports: compiled code
    relies on their types, so an edit of one of them makes the build stale too."""
    src = PACKAGE_ROOT.parent
    found: set[str] = set()
    for node in ast.walk(ast.parse((src / relative).read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
        for name in names:
            if not name.startswith("choux"):
                continue
            path = src.joinpath(*name.split("."))
            for candidate in (path.with_suffix(".py"), path / "__init__.py"):
                if candidate.is_file():
                    found.add(str(candidate.relative_to(src)))
    return found


def _module_name(relative: str) -> str:
    return relative.removesuffix(".py").replace("/", ".")


def activate(package: str, path: list[str]) -> bool:
    """Call from a package's ``__init__`` (``activate(__name__, __path__)``) before it
    imports its modules: use their compiled build when it is fresh. Returns whether the
    package's modules are compiled."""
    if os.environ.get("CHOUX_NATIVE", "1") == "0":
        _active[package] = False
        return False
    modules = _fresh_manifest()
    compiled = modules is not None and any(m.startswith(package + ".") for m in modules)
    if compiled:
        built = str(BUILD_DIR.joinpath(*package.split(".")))
        if built not in path:
            path.insert(0, built)
        if str(BUILD_DIR) not in sys.path:
            sys.path.append(str(BUILD_DIR))  # mypyc's shared library of the group
    _active[package] = compiled
    return compiled


def restore_docstrings(package: str) -> None:
    """Give the compiled modules of `package` already imported their module docstring (a
    compiled module has none; views document their keys there)."""
    for relative in (_fresh_manifest() or {}).values():
        name = _module_name(relative)
        module = sys.modules.get(name)
        if name.startswith(package + ".") and module is not None and module.__doc__ is None:
            source = (PACKAGE_ROOT.parent / relative).read_text(encoding="utf-8")
            module.__doc__ = ast.get_docstring(ast.parse(source), clean=False)


def compiled_sources() -> list[Path]:
    """The sources whose compiled build `activate` uses (none when it is stale or turned
    off): their doctests must run on the source, a compiled module keeps no docstrings."""
    if os.environ.get("CHOUX_NATIVE", "1") == "0":
        return []
    modules = _fresh_manifest() or {}
    return [PACKAGE_ROOT.parent / relative for relative in sorted(modules.values())]


def is_compiled(module: str) -> bool:
    """Whether `module` (dotted name) was imported from its compiled build."""
    loaded = sys.modules.get(module)
    origin = getattr(loaded, "__file__", None) or ""
    return origin.startswith(str(BUILD_DIR)) and not origin.endswith(".py")


#: C flags added to mypyc's (-O3 -g1): the group's functions bind inside its shared library,
#: so that one compiled function calls another (and the runtime's helpers) directly and gcc
#: may inline it, instead of a call through the PLT; only the init functions are exported
#: (Python's `PyMODINIT_FUNC` marks them visible itself)
CFLAGS = ["-fvisibility=hidden", "-fno-semantic-interposition"]
#: the build's profile (gcc's ``.gcda`` counts) while `build` trains it
PROFILE_DIR = BUILD_DIR / "profile"


def build(sources: list[str], train: str | None = None) -> None:
    """Compile `sources` (paths of ``.py`` files under ``src``) with mypyc into BUILD_DIR
    and write the manifest last (a failed build leaves no manifest: the ``.py`` files run).

    `train`: modules (comma-separated) whose ``train()`` runs the compiled modules' typical
    work. The modules are then compiled instrumented first, each ``train()`` runs once in a
    child process, and the final build uses its counts (gcc's profile-guided optimization: hot
    paths together, mypyc's error handling out of the way). Only with GCC; if anything in
    it fails, the final build is the plain one. Either way it computes the same."""
    from mypyc.build import mypycify

    src = PACKAGE_ROOT.parent
    relative = sorted(str(Path(s).resolve().relative_to(src)) for s in sources)
    MANIFEST.unlink(missing_ok=True)
    # a module compiled by an earlier build and no longer listed would shadow its source
    shutil.rmtree(BUILD_DIR / PACKAGE_ROOT.name, ignore_errors=True)
    here = Path.cwd()
    os.chdir(src)  # mypyc names modules after paths relative to the working directory
    try:
        extensions = mypycify(
            relative, opt_level="3", group_name=GROUP, target_dir=str(BUILD_DIR / "c")
        )
        if train is not None and _is_gcc() and _trained(extensions, src, relative, train):
            # -fprofile-partial-training: what the training never ran keeps plain -O3
            use = [*CFLAGS, "-fprofile-use", "-fprofile-partial-training"]
            use += [f"-fprofile-dir={PROFILE_DIR}", "-fprofile-correction", "-Wno-missing-profile"]
            try:
                _compile(extensions, use, [])
            except (Exception, SystemExit) as error:  # setuptools exits on a failed compile
                print(f"warning: the trained build failed ({error}): plain build", flush=True)
                _compile(extensions, CFLAGS, [])
        else:
            _compile(extensions, CFLAGS, [])
    finally:
        os.chdir(here)
    _write_manifest(src, relative)


def _compile(extensions: list[Any], cflags: list[str], ldflags: list[str]) -> None:
    """Build mypyc's C extensions (every one again) with extra compile and link flags."""
    from setuptools import setup  # type: ignore[import-untyped]

    for extension in extensions:
        base_c = getattr(extension, "_choux_cflags", None)
        if base_c is None:
            base_c = extension._choux_cflags = list(extension.extra_compile_args or [])
            extension._choux_ldflags = list(extension.extra_link_args or [])
        extension.extra_compile_args = [*base_c, *cflags]
        extension.extra_link_args = [*extension._choux_ldflags, *ldflags]
    setup(
        name="choux-native",
        ext_modules=extensions,
        script_args=[
            "build_ext",
            "--force",
            "--build-lib",
            str(BUILD_DIR),
            "--build-temp",
            str(BUILD_DIR / "temp"),
        ],
    )


def _is_gcc() -> bool:
    """Whether setuptools compiles with GCC (the profile's flags and files are GCC's; clang,
    macOS's ``cc``, gets the plain build)."""
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()
    try:
        done = subprocess.run([compiler[0], "--version"], capture_output=True, text=True)
    except OSError:
        return False
    return "Free Software Foundation" in done.stdout


def _trained(extensions: list[Any], src: Path, relative: list[str], modules: str) -> bool:
    """Build instrumented, then run each ``train()`` of `modules` (comma-separated) in a
    child process on that build;
    whether the profile is there (on any failure the caller makes the plain build)."""
    shutil.rmtree(PROFILE_DIR, ignore_errors=True)
    try:
        _compile(
            extensions,
            [
                *CFLAGS,
                "-fprofile-generate",
                "-fprofile-update=single",
                f"-fprofile-dir={PROFILE_DIR}",
            ],
            ["-fprofile-generate"],
        )
        _write_manifest(src, relative)
        env = {**os.environ, "CHOUX_NATIVE": "1"}
        code = "".join(f"import {m}; {m}.train(); " for m in modules.split(","))
        done = subprocess.run([sys.executable, "-c", code], env=env, check=False)
    except (Exception, SystemExit) as error:  # setuptools reports a failed compile by exiting
        print(f"warning: the instrumented build failed ({error}): plain build", flush=True)
        return False
    finally:
        MANIFEST.unlink(missing_ok=True)
    if done.returncode != 0:
        print(f"warning: training the build with {modules} failed: plain build", flush=True)
    return done.returncode == 0


def _write_manifest(src: Path, relative: list[str]) -> None:
    depends = sorted(set().union(*map(_imported_sources, relative)) - set(relative))
    manifest = {
        "tag": _tag(),
        "sources": {r: _digest(src / r) for r in relative},
        "depends": {r: _digest(src / r) for r in depends},
    }
    MANIFEST.write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    arguments = sys.argv[1:]
    training = None
    if arguments[:1] == ["--train"]:
        training, arguments = arguments[1], arguments[2:]
    build(arguments, training)
