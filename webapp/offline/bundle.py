"""The offline bundle this server offers: the one `redbook offline-build` made (build.py), read
once when the app is created, and offered only while it was built from this very app."""
import json
from dataclasses import dataclass, field
from pathlib import Path

# Why a server offers no bundle: reason -> what the switch says (the player reads it)
NOT_OFFERED = {
    "not-built": "This server does not offer Red Book offline: its offline copy was not built "
                 "(that needs npm). Calculators and search need a connection here.",
    "out-of-date": "This server does not offer Red Book offline at the moment: its offline copy is older "
                   "than the app. Calculators and search need a connection here.",
}


@dataclass(frozen=True)
class OfflineBundle:
    """The bundle in folder, and its manifest; or why there is none to offer."""

    folder: Path | None = None
    manifest: dict = field(default_factory=dict)
    problem: str | None = "not-built"  # a key of NOT_OFFERED, or None when it is offered

    @property
    def offered(self) -> bool:
        return self.problem is None

    @property
    def version(self) -> str:
        return self.manifest.get("version", "")

    @property
    def files(self) -> dict:
        return self.manifest.get("files", {})

    def download_bytes(self) -> int:
        """What a browser downloads, compressed as it will be (brotli where the bundle has it)."""
        return sum(f.get("br", f["gzip"]) for f in self.files.values())

    def unpacked_bytes(self) -> int:
        """What the bundle takes on a device once downloaded."""
        return sum(f["bytes"] for f in self.files.values())


def read_bundle(folder, build) -> OfflineBundle:
    """The bundle in folder (None: none), offered if it was built from the app whose build
    fingerprint is build (the build writes the manifest last, once every file is in place)."""
    if folder is None:
        return OfflineBundle()
    folder = Path(folder)
    try:
        manifest = json.loads((folder / "manifest.json").read_text())
    except (OSError, ValueError):
        return OfflineBundle()
    if manifest.get("version") != build:
        return OfflineBundle(folder, manifest, "out-of-date")
    return OfflineBundle(folder, manifest, None)
