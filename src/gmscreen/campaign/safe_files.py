"""Every file the store creates, replaces or reads goes through here: no write follows a link.

Campaign folders are swapped between GMs and unpacked from archives, so any name in one may be a
symbolic link, a FIFO or a device planted there. The rules:

- New files are created exclusively (``O_CREAT | O_EXCL``): nothing already at the name (a file,
  a link, even a dangling one) is opened, followed or overwritten.
- Files replaced atomically go through a temporary file with a random name (nobody can plant a
  link at it in advance), then ``os.replace``, which replaces a link at the target by our file
  and never writes through it.
- Files read must be regular files, opened without following a link and without blocking (a
  FIFO would hang the read), and are read with a size bound.
- Folders written into (``sessions/``, ``exports/``) must be real folders, not links.
- Names that come from files (session ids) or make file names are validated first
  (:func:`check_component`).

``O_NOFOLLOW`` and ``O_NONBLOCK`` do not exist on Windows: there an ``lstat`` check before the
open refuses links (with a window between the two that the POSIX flags close). Folders are
fsynced on POSIX only (Windows cannot open a folder as a file, and NTFS journals renames).
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
import sys
import unicodedata
from pathlib import Path
from typing import BinaryIO

from gmscreen.campaign.bounds import MAX_FILE
from gmscreen.campaign.errors import CampaignError, CampaignFileError, Problem

POSIX = os.name == "posix"
O_NOFOLLOW: int = getattr(os, "O_NOFOLLOW", 0)
O_NONBLOCK: int = getattr(os, "O_NONBLOCK", 0)
O_BINARY: int = getattr(os, "O_BINARY", 0)  # Windows: no newline translation
O_CLOEXEC: int = getattr(os, "O_CLOEXEC", 0)
_SAFE = O_NOFOLLOW | O_NONBLOCK | O_BINARY | O_CLOEXEC

MIB = 1024 * 1024
# A journal holds one session; an event line is 150-400 bytes, so 512 MiB is over a million
# events in one sitting (years of weekly play fit in a few MiB). Past it, a message, not memory.
JOURNAL_LIMIT = 512 * MIB
# campaign.toml holds every character and item: a few KiB to a few MiB in practice; the same
# bound as the codec's for any file read whole (bounds.MAX_FILE).
CHECKPOINT_LIMIT = MAX_FILE
SMALL_LIMIT = 64 * 1024  # the lock file

# Characters Windows refuses in file names (besides the separators and control characters).
_WINDOWS_FORBIDDEN = set('<>:"|?*')
MAX_COMPONENT = 120  # characters; well inside the 255 bytes every file system allows


class UnsafeFile(CampaignError):
    """A file or folder of a campaign that gmscreen will not write through (a link, a FIFO, …)."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


def describe_kind(mode: int) -> str:
    """What a file that is not a regular file is, in words."""
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _link_refused(path: Path) -> UnsafeFile:
    return UnsafeFile(
        path, "is a symbolic link; gmscreen neither reads nor writes through links: remove it"
    )


def _not_regular(path: Path, mode: int) -> UnsafeFile:
    return UnsafeFile(path, f"is {describe_kind(mode)}, not a regular file: remove it")


def open_regular(path: Path, flags: int, mode: int = 0o644) -> int:
    """``os.open`` of a regular file that never follows a link at ``path`` and never blocks.

    Raises :class:`UnsafeFile` for a link, FIFO, device or folder; other ``OSError`` as is.
    """
    try:
        if stat.S_ISLNK(os.lstat(path).st_mode):  # the only guard on Windows
            raise _link_refused(path)
    except FileNotFoundError:
        pass
    try:
        fd = os.open(path, flags | _SAFE, mode)
    except OSError as error:
        if error.errno == errno.ELOOP:  # O_NOFOLLOW met a link planted since the lstat
            raise _link_refused(path) from None
        raise
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise _not_regular(path, st.st_mode)
        if sys.platform != "win32":
            os.set_blocking(fd, True)  # a regular file: ordinary reads and writes from here
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_regular(path: Path, limit: int, start: int = 0) -> bytes:
    """The bytes of the regular file at ``path`` from ``start`` on; a file of more than
    ``limit`` bytes is not read.

    A link, FIFO, device or a file over the limit is a :class:`CampaignFileError` naming it;
    other ``OSError`` (missing, unreadable) is raised as is for the caller to word.
    """
    try:
        fd = open_regular(path, os.O_RDONLY)
    except UnsafeFile as error:
        raise CampaignFileError([Problem(path, 0, error.reason)]) from None
    try:
        size = os.fstat(fd).st_size
        if start:
            os.lseek(fd, start, os.SEEK_SET)
        chunks: list[bytes] = []
        total = start
        while size <= limit and total <= limit:
            chunk = os.read(fd, min(limit + 1 - total, 16 * MIB))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    finally:
        os.close(fd)
    if size > limit or total > limit:
        raise CampaignFileError(
            [
                Problem(
                    path,
                    0,
                    f"is larger than gmscreen reads ({max(size, total) // MIB} MiB; "
                    f"the limit is {limit // MIB} MiB)",
                )
            ]
        )
    return b"".join(chunks)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def write_exclusive(path: Path, data: bytes, flags: int = 0) -> os.stat_result:
    """Create ``path`` holding ``data`` (fsynced); returns its identity.

    Raises ``FileExistsError`` if anything at all is at ``path``: a file, a folder, a link (even
    a dangling one: ``O_EXCL`` never follows it, so its target is never created).
    """
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _SAFE | flags, 0o644)
    try:
        _write_all(fd, data)
        os.fsync(fd)
        return os.fstat(fd)
    finally:
        os.close(fd)


def _temporary(folder: Path, name: str, data: bytes) -> tuple[Path, os.stat_result]:
    """``data`` in a new file of ``folder`` with a random name, so no link can wait there."""
    for _attempt in range(8):
        temporary = folder / f".{name}.{secrets.token_hex(8)}.tmp"
        try:
            return temporary, write_exclusive(temporary, data)
        except FileExistsError:
            continue  # 64 random bits taken: someone planted files; try another name
    raise CampaignError(f"{folder}: could not create a temporary file for {name}")


def replace_file(folder: Path, name: str, data: bytes) -> None:
    """Replace ``folder/name`` by ``data`` atomically: readers see the old file or the new one.

    A link at ``folder/name`` is replaced by the new file, never written through.
    """
    temporary, _ = _temporary(folder, name, data)
    try:
        os.replace(temporary, folder / name)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    fsync_dir(folder)


def publish_new(folder: Path, name: str, data: bytes) -> os.stat_result:
    """Create ``folder/name`` holding ``data``: complete or not at all, and never over anything.

    Raises ``FileExistsError`` if something (even a dangling link) is at the name. POSIX links
    the temporary file into place (``link`` refuses an existing name); Windows renames it
    (``rename`` refuses an existing name there).
    """
    temporary, identity = _temporary(folder, name, data)
    target = folder / name
    try:
        if POSIX:
            try:
                os.link(temporary, target)
            except FileExistsError:
                raise
            except OSError as error:
                if error.errno not in _NO_HARD_LINKS:
                    raise
                _rename_if_free(temporary, target)  # exFAT, some network shares: no links
        else:
            os.rename(temporary, target)
    finally:
        temporary.unlink(missing_ok=True)
    fsync_dir(folder)
    return identity


# What link() says on file systems that have no hard links (exFAT and FAT, some FUSE and SMB).
_NO_HARD_LINKS = {
    errno.EPERM,
    errno.EOPNOTSUPP,
    getattr(errno, "ENOTSUP", errno.EOPNOTSUPP),
    errno.EMLINK,
    errno.ENOSYS,
    errno.EXDEV,
}


def _rename_if_free(temporary: Path, target: Path) -> None:
    """Rename into place unless something is at ``target`` (a rename replaces a link there,
    never follows it; the check and the rename are two steps, which is why link comes first)."""
    if os.path.lexists(target):
        raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(target))
    os.rename(temporary, target)


def open_append(path: Path, identity: os.stat_result) -> BinaryIO:
    """``path`` opened for appending, checked to be the very file ``identity`` describes."""
    fd = open_regular(path, os.O_WRONLY | os.O_APPEND)
    st = os.fstat(fd)
    if (st.st_dev, st.st_ino) != (identity.st_dev, identity.st_ino):
        os.close(fd)
        raise UnsafeFile(path, "was replaced by another file as it was created; not writing to it")
    return os.fdopen(fd, "ab")


def ensure_folder(parent: Path, name: str) -> Path:
    """``parent/name`` as a real folder (made if missing); a link or a file there is refused."""
    path = parent / name
    try:
        os.mkdir(path)  # never follows a link at ``path``: an existing one is EEXIST
    except FileExistsError:
        pass
    else:
        fsync_dir(parent)
    if not check_real_folder(path):  # removed since the mkdir: as any other missing folder
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), str(path))
    return path


def check_real_folder(path: Path) -> bool:
    """True if ``path`` is a real folder, False if nothing is there; a link or file is refused."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return False
    if stat.S_ISDIR(mode):
        return True
    if stat.S_ISLNK(mode):
        # Not "remove it": a GM who linked sessions/ to a synced folder would lose sight of them.
        raise UnsafeFile(
            path,
            "is a symbolic link; gmscreen reads and writes only inside the campaign folder, "
            "never through links: put the folder it links to here in its place",
        )
    raise UnsafeFile(path, f"is {describe_kind(mode)}, not a folder")


def resolve_folder(path: str | Path) -> Path:
    """The campaign folder as an absolute path with every link resolved, once, when opened.

    Everything after goes through this path, so a link swapped in along the way later (or a
    change of working folder) cannot move where gmscreen writes.
    """
    return Path(path).resolve()


def component_problem(name: str) -> str | None:
    """Why ``name`` cannot be one file name inside a campaign folder (None if it can)."""
    if not name or name in (".", ".."):
        return "is empty or a folder reference"
    if "/" in name or "\\" in name:
        return "contains a path separator"
    if ".." in name:
        return "contains '..'"
    if len(name) > MAX_COMPONENT:
        return f"is longer than {MAX_COMPONENT} characters"
    for ch in name:
        category = unicodedata.category(ch)
        if category == "Cc":
            return f"contains a control character (U+{ord(ch):04X})"
        if category == "Cf":
            return f"contains an invisible formatting character (U+{ord(ch):04X})"
        if ch in _WINDOWS_FORBIDDEN:
            return f"contains {ch!r}, which Windows does not allow in file names"
    if name != name.strip(" ."):
        return "begins or ends with a space or a dot"
    return None


def check_component(name: str, what: str) -> str:
    """``name`` if it is a safe single file name, else a :class:`CampaignError` naming ``what``."""
    problem = component_problem(name)
    if problem is not None:
        raise CampaignError(f"{what} {name!r} {problem}")
    return name


def fsync_dir(folder: Path) -> None:
    """Make a new or renamed file in ``folder`` survive a crash (the entry, not just the data).

    POSIX only: Windows cannot open a folder this way, and NTFS journals its renames.
    """
    if not POSIX:
        return
    fd = os.open(folder, os.O_RDONLY | O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
