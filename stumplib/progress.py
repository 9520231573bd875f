"""Progress bars for long loops, quiet when ``STUMPLIB_PROGRESS=0``.

The bars are plain-text tqdm bars, also inside Jupyter: ``tqdm.auto`` would need
ipywidgets, and without it prints a warning (with local paths) into every notebook
that imports it. Builds and tests set ``STUMPLIB_PROGRESS=0`` so that stored outputs
stay stable.
"""

import os

from tqdm import tqdm


def bar(iterable=None, **kwargs):
    """Wrap ``iterable`` in a tqdm progress bar.

    Parameters
    ----------
    iterable : iterable, optional
        What to iterate over.
    **kwargs
        Passed to ``tqdm.tqdm`` (``desc``, ``total``, ...).

    Returns
    -------
    tqdm.tqdm
        The bar, disabled when the environment sets ``STUMPLIB_PROGRESS=0``.
    """
    disable = os.environ.get("STUMPLIB_PROGRESS", "1") == "0"
    return tqdm(iterable, disable=disable, leave=False, **kwargs)
