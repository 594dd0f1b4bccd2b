"""Typed code generated from the features' schemas by ``python -m corelogic.typegen``.

``make typegen-examples`` regenerates these files; ``make test`` fails when they
differ from what the library gives (docs/schemas.md).
"""
