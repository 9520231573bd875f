"""Sphinx extension: the claims-ledger page, built from the executed notebooks.

While each chapter is read, the ``claim <id>: ...`` lines printed by
:func:`stumplib.claims.check` are collected from its cell outputs and the output
block gets an anchor. The ``{claims-ledger}`` directive is then replaced by a table
of every check (statement from the JSON records of :mod:`stumplib.claims`, values
as printed, a link to the output). A claim id of DESIGN §2 that no chapter checks,
a failing check, or a check without a record is a build warning (an error under -W).
"""

from docutils import nodes
from docutils.parsers.rst import Directive
from sphinx.util import logging

from stumplib import claims

logger = logging.getLogger(__name__)
HEADER = ("Claim", "Statement", "Result")
WIDTHS = (22, 53, 25)


class ledger_placeholder(nodes.General, nodes.Element):
    """Where the ledger table goes once every chapter has been read."""


class ClaimsLedger(Directive):
    """``{claims-ledger}``: the table of every claim check in the book."""

    def run(self):
        return [ledger_placeholder()]


def _store(env):
    if not hasattr(env, "stumplib_claims"):
        env.stumplib_claims = {}
    return env.stumplib_claims


def collect_checks(app, doctree):
    """Record the claim lines of one document and anchor their output blocks."""
    found = []
    blocks = (b for b in doctree.findall(nodes.literal_block) if "output" in b["classes"])
    for k, block in enumerate(blocks):
        lines = claims.parse_lines(block.astext())
        if lines:
            anchor = f"claim-check-{k}"
            block["ids"].append(anchor)
            found += [dict(line, docname=app.env.docname, anchor=anchor) for line in lines]
    _store(app.env)[app.env.docname] = found


def purge(app, env, docname):
    _store(env).pop(docname, None)
    getattr(env, "stumplib_ledger_docs", set()).discard(docname)


def merge(app, env, docnames, other):
    _store(env).update({d: _store(other)[d] for d in docnames if d in _store(other)})


def always_outdated(app, env, added, changed, removed):
    """The ledger page depends on every chapter: rewrite it on every build."""
    return [d for d in env.found_docs if _has_ledger(env, d)]


def _has_ledger(env, docname):
    return docname in getattr(env, "stumplib_ledger_docs", set())


def note_ledger_doc(app, doctree):
    if any(doctree.findall(ledger_placeholder)):
        if not hasattr(app.env, "stumplib_ledger_docs"):
            app.env.stumplib_ledger_docs = set()
        app.env.stumplib_ledger_docs.add(app.env.docname)


def ordered_checks(env):
    """Every collected check, in the order of claims.IDS, then of the documents."""
    checks = [c for doc in sorted(_store(env)) for c in _store(env)[doc]]
    return sorted(checks, key=lambda c: claims.IDS.index(c["id"]))


def statements(records):
    """Map (id, measured, expected, tol) to the recorded statement."""
    return {(r["id"], r["measured"], r["expected"], r["tol"]): r["statement"] for r in records}


def check_consistency(app, env):
    """Warn (an error under -W) about unchecked ids, failing checks and missing records."""
    checks = ordered_checks(env)
    known = statements(claims.read_ledger())
    for claim_id in sorted(set(claims.IDS) - {c["id"] for c in checks}):
        logger.warning(f"claims ledger: claim {claim_id!r} is checked by no chapter")
    for c in checks:
        where = f"{c['docname']} ({c['anchor']})"
        if not c["holds"]:
            logger.warning(f"claims ledger: claim {c['id']!r} FAILS in {where}")
        if _key(c) not in known:
            logger.warning(f"claims ledger: no recorded statement for the {c['id']!r} check "
                           f"in {where}; re-execute it (make clean book)")


def _key(check):
    return check["id"], check["measured"], check["expected"], check["tol"]


def fill_ledger(app, doctree, docname):
    """Replace the placeholder by the table of checks."""
    for placeholder in list(doctree.findall(ledger_placeholder)):
        known = statements(claims.read_ledger())
        checks = ordered_checks(app.env)
        rows = [_row(app, docname, c, known.get(_key(c), "(no record)")) for c in checks]
        placeholder.replace_self([_summary(checks), _table(rows)])


def _summary(checks):
    covered = len({c["id"] for c in checks})
    holding = sum(c["holds"] for c in checks)
    return nodes.paragraph(text=f"This build ran {len(checks)} checks covering {covered} of the "
                                f"{len(claims.IDS)} claims; {holding} of them hold.")


def _row(app, docname, check, statement):
    """Three cells: id and link; statement; status, measured and expected values."""
    uri = app.builder.get_relative_uri(docname, check["docname"]) + "#" + check["anchor"]
    link = nodes.reference("", _short_title(app.env, check["docname"]), internal=True,
                           refuri=uri, reftitle=app.env.titles[check["docname"]].astext())
    return [
        [nodes.paragraph("", "", nodes.literal(text=check["id"])), nodes.paragraph("", "", link)],
        [nodes.paragraph(text=statement)],
        [nodes.paragraph("", "", nodes.strong(text="holds" if check["holds"] else "FAILS")),
         nodes.paragraph(text=f"measured {check['measured']}"),
         nodes.paragraph(text=f"expected {check['expected']} ± {check['tol']}")],
    ]


def _short_title(env, docname):
    """``Chapter 3`` for a numbered chapter, else the page title."""
    number = env.toc_secnumbers.get(docname, {}).get("")
    if number:
        return "Chapter " + ".".join(map(str, number))
    return env.titles[docname].astext()


def _table(rows):
    table = nodes.table(classes=["claims-ledger"])
    group = nodes.tgroup(cols=len(HEADER))
    table += group
    group += [nodes.colspec(colwidth=w) for w in WIDTHS]
    group += nodes.thead("", _table_row([[nodes.paragraph(text=h)] for h in HEADER]))
    group += nodes.tbody("", *[_table_row(row) for row in rows])
    return table


def _table_row(cells):
    row = nodes.row()
    for content in cells:
        row += nodes.entry("", *content)
    return row


def setup(app):
    app.add_node(ledger_placeholder)
    app.add_directive("claims-ledger", ClaimsLedger)
    app.connect("doctree-read", collect_checks)
    app.connect("doctree-read", note_ledger_doc)
    app.connect("env-purge-doc", purge)
    app.connect("env-merge-info", merge)
    app.connect("env-get-outdated", always_outdated)
    app.connect("env-check-consistency", check_consistency)
    app.connect("doctree-resolved", fill_ledger)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
