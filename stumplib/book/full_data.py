"""Full-scale results as committed data: written by a make target, read by a chapter.

A number the book cites from a run beyond book scale comes from a JSON file in
:data:`DATA`, written by the make target named in it, with its command, the commit it
ran from and the date; a chapter reads it with :func:`load` and checks it (for instance
by re-running its smallest size at build). The files ship with the package, so a
chapter finds them wherever stumplib is installed (a local clone, Binder, Colab). The
re-draw sweep's record (``seeds.json``, written by ``make seeds``) is kept here too:
every committed result has this one home.
"""

import json
from pathlib import Path

#: Fields every data file carries besides its results.
PROVENANCE = ("command", "commit", "date")

#: The folder of the committed data files (package data of ``stumplib.book``).
DATA = Path(__file__).resolve().parent / "data"


def load(path):
    """The contents of a full-scale data file, its provenance checked.

    Parameters
    ----------
    path : str or pathlib.Path
        The JSON file.

    Returns
    -------
    dict

    Raises
    ------
    FileNotFoundError
        If the file does not exist (the message names the make target's file).
    ValueError
        If the file is not a JSON object with non-empty ``command``, ``commit`` and
        ``date`` strings.
    """
    path = Path(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"path {path} must hold a JSON object")
    missing = [k for k in PROVENANCE if not (isinstance(data.get(k), str) and data[k])]
    if missing:
        raise ValueError(f"path {path} lacks its provenance: {', '.join(missing)}")
    return data


def save(path, data):
    """Write ``data`` (a dict carrying :data:`PROVENANCE`) to ``path`` atomically.

    The folder is made if need be.

    Parameters
    ----------
    path : str or pathlib.Path
        The JSON file.
    data : dict
        Its contents.

    Raises
    ------
    ValueError
        If ``data`` lacks a provenance field.
    """
    path = Path(path)
    missing = [k for k in PROVENANCE if not data.get(k)]
    if missing:
        raise ValueError(f"data lacks its provenance: {', '.join(missing)}")
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".partial")
    partial.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    partial.replace(path)
