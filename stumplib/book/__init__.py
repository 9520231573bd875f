"""The book's machinery, apart from the science.

The science (every other module of :mod:`stumplib`) never imports this package; the
chapters and the book's Sphinx extensions do.

``claims``
    one-line claim checks, each with a structured record for the claims ledger
``prose``
    numbers for the prose: rounded once, written as a reader writes them, glued
``plotting``
    the book's figure style
``scales``
    experiment sizes at book and full scale, and the seed offset of a re-draw
``full_data``
    results beyond book scale as committed data files, with their provenance
``frozen_data``
    chapter 6's committed frozen runs as typed records, and their summaries
``contexts``
    the figures and SymPy displays of a context, the threshold rules and the head
``interactive``
    the interactive figures' record and display (Bokeh, callbacks in the browser)
``playground``, ``live_portrait``, ``corpus_playground``
    the context playground, the live phase portrait and the corpus playground, three
    interactive figures
"""
