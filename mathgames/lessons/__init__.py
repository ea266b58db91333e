"""The lesson kit: numbers in each language, Predict, Trials, reveals and printable worksheets,
for the notebooks in ``notebooks/explore/``.
"""
