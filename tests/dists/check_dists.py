"""The distributions as users install them (``make dists``, part of ``make test``).

Builds a wheel from each distribution's folder (the core with its CLI and server, and
every title), then installs them step by step into one brand-new environment and
checks what each combination can do:

1. ``gameweave`` alone: the command runs, lists no titles and says how to add one,
   and has no ``serve`` (the HTTP adapter adds it only with the ``http`` extra);
2. plus one title: that title is listed and plays a whole bot game;
3. everything, with the ``http`` extra: every title is listed, the server imports,
   and ``serve`` is a command;
4. one title uninstalled again: the others still work, it is gone;
5. one published title with its ``test`` extra in another brand-new environment:
   its own tests pass there, so the extra names everything they import.

Usage: ``python tests/dists/check_dists.py gameweave_museum gameweave_house [titles/...]``
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(
    *args: str | Path, ok: bool = True, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [str(a) for a in args], capture_output=True, text=True, cwd=cwd, timeout=600
    )
    if ok and done.returncode != 0:
        sys.exit(f"failed: {' '.join(map(str, args))}\n{done.stdout}\n{done.stderr}")
    return done


def check(condition: bool, what: str) -> None:
    if not condition:
        sys.exit(f"dists: {what}")
    print(f"  ok: {what}")


def project_name(folder: Path) -> str:
    with open(folder / "pyproject.toml", "rb") as f:
        return str(tomllib.load(f)["project"]["name"])


def slug(folder: Path) -> str:
    with open(folder / "pyproject.toml", "rb") as f:
        points = tomllib.load(f)["project"]["entry-points"]["gameweave"]
    (name,) = points
    return str(name)


def listed(venv: Path) -> list[str]:
    out = run(venv / "bin" / "gameweave", "games", "--json").stdout
    return sorted(t["name"] for t in json.loads(out))


def has_serve(gameweave: Path) -> bool:
    """Whether ``gameweave`` lists ``serve`` and runs ``serve --help``; the two agree."""
    listing = run(gameweave, "--help").stdout
    in_help = any(line.strip("│ ").startswith("serve ") for line in listing.splitlines())
    helped = run(gameweave, "serve", "--help", ok=False)
    if in_help != (helped.returncode == 0):
        sys.exit(f"dists: `gameweave --help` and `gameweave serve --help` disagree\n{listing}")
    return in_help


def main(title_dirs: list[str]) -> None:
    titles = [ROOT / d for d in title_dirs]
    work = Path(tempfile.mkdtemp(prefix="gameweave-dists-"))
    try:
        wheels = work / "wheels"
        for folder in [ROOT, *titles]:
            # --no-build-isolation: the build tools of the environment running this.
            run(
                sys.executable,
                "-m",
                "pip",
                "wheel",
                "--quiet",
                "--no-deps",
                "--no-build-isolation",
                "-w",
                wheels,
                folder,
            )
        built = sorted(p.name for p in wheels.glob("*.whl"))
        print("built:", ", ".join(built))
        check(len(built) == 1 + len(titles), "one wheel per distribution")

        def wheel(name: str) -> Path:
            (found,) = wheels.glob(name.replace("-", "_") + "-*.whl")
            return found

        venv = work / "venv"
        run(sys.executable, "-m", "venv", venv)
        pip: list[str | Path] = [
            venv / "bin" / "python",
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "--find-links",
            wheels,
        ]
        gameweave = venv / "bin" / "gameweave"

        print("1. gameweave alone")
        run(*pip, wheel("gameweave"))
        check(listed(venv) == [], "no title is listed")
        plain = run(gameweave, "games").stdout
        check(
            "No titles are installed" in plain and "pip install" in plain,
            "`gameweave games` says how to add a title",
        )
        version = run(gameweave, "--version").stdout
        check("gameweave" in version, "`gameweave --version` answers")
        check(not has_serve(gameweave), "without the http extra there is no `serve` command")
        importable = run(venv / "bin" / "python", "-c", "import starlette", ok=False)
        check(importable.returncode != 0, "the server's dependencies are not installed")

        first = titles[0]
        print(f"2. gameweave and {project_name(first)}")
        run(*pip, wheel(project_name(first)))
        check(listed(venv) == [slug(first)], f"only {slug(first)} is listed")
        sim = run(gameweave, "simulate", slug(first), "--games", "2", "--seed", "1", "--json")
        check(json.loads(sim.stdout)["games"] == 2, f"{slug(first)} plays whole bot games")

        print("3. everything, with the http extra")
        run(*pip, f"{wheel('gameweave')}[http]", *(wheel(project_name(t)) for t in titles))
        check(listed(venv) == sorted(slug(t) for t in titles), "every title is listed")
        run(venv / "bin" / "python", "-c", "import gameweave_http.app")
        check(has_serve(gameweave), "with the http extra `serve` is a command")
        for t in titles:
            sim = run(gameweave, "simulate", slug(t), "--games", "1", "--seed", "2", "--json")
            check(json.loads(sim.stdout)["games"] == 1, f"{slug(t)} plays a bot game")

        print(f"4. {project_name(first)} uninstalled")
        run(venv / "bin" / "python", "-m", "pip", "uninstall", "--quiet", "-y", project_name(first))
        rest = sorted(slug(t) for t in titles[1:])
        check(listed(venv) == rest, f"{slug(first)} is gone, the others remain")

        # One of the published games (the lightest to test): its tests need the
        # server, the browser and the kit, so its extra must name them all.
        published = next((t for t in titles if t.name == "master-thief"), titles[-1])
        name = project_name(published)
        print(f"5. {name}[test] alone, and its tests")
        tested = work / "tested"
        run(sys.executable, "-m", "venv", tested)
        run(
            tested / "bin" / "python",
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "--find-links",
            wheels,
            f"{wheel(name)}[test]",
        )
        # From the title's folder, as its own CI would run them, against the wheel
        # installed (pytest puts the tests' folder on the path, not the sources').
        done = run(
            tested / "bin" / "pytest", "-q", "-p", "no:cacheprovider", ok=False, cwd=published
        )
        tail = done.stdout.strip().splitlines()[-1:] or ["(no output)"]
        if done.returncode != 0:
            print(done.stdout[-4000:], done.stderr[-2000:])
        check(done.returncode == 0, f"{name}'s tests pass with only its test extra: {tail[0]}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main(sys.argv[1:] or ["gameweave_museum", "gameweave_house"])
