"""Sphinx extension: in the PDF, the introduction is one chapter.

The LaTeX builder makes the root document's title the book's title and each of its
sections a chapter, so the introduction's sections ("What the paper claims", "The
model is our formalization", ...) came out as five chapters, each opening on a new
right-hand page after a blank one. For the LaTeX builder only, this gathers what the
root document says before its table of contents into one section titled
:data:`TITLE`, which LaTeX makes one chapter with those sections as its sections
(unnumbered, as ``publishing`` leaves the introduction). The HTML is unchanged.
"""

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms.post_transforms import SphinxPostTransform

#: The title of the introduction's chapter in the PDF.
TITLE = "Introduction"


def _is_contents(node):
    """The root document's table of contents, as the LaTeX builder inlined it."""
    return isinstance(node, addnodes.start_of_file | addnodes.toctree) or (
        isinstance(node, nodes.compound) and "toctree-wrapper" in node["classes"]
    )


def gather_introduction(document, title=TITLE):
    """Wrap the root section's content before its contents into one section.

    Parameters
    ----------
    document : docutils.nodes.document
        The LaTeX builder's assembled document (the root document with every other
        document inlined where its table of contents names it).
    title : str
        The title of the new section.

    Returns
    -------
    docutils.nodes.section or None
        The new section, or None if the root section has nothing to gather.
    """
    root = next(iter(document.findall(nodes.section)), None)
    if root is None:
        return None
    children = list(root.children)
    start = 1 if children and isinstance(children[0], nodes.title) else 0
    end = next(
        (k for k in range(start, len(children)) if _is_contents(children[k])),
        len(children),
    )
    body = children[start:end]
    if not any(isinstance(n, nodes.section) for n in body):
        return None
    section = nodes.section(ids=["introduction-chapter"], names=[])
    section += nodes.title(text=title)
    for node in body:
        root.remove(node)
        section += node
    root.insert(start, section)
    return section


class IntroductionChapter(SphinxPostTransform):
    """Gather the introduction into one chapter, for the LaTeX builder only."""

    default_priority = 400
    builders = ("latex",)

    def run(self, **kwargs):
        """Gather, on the assembled document only (it inlines the other documents)."""
        if any(self.document.findall(addnodes.start_of_file)):
            gather_introduction(self.document)


def setup(app):
    """Register the extension with Sphinx."""
    app.add_post_transform(IntroductionChapter)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
