"""The static site: the games' pages running in the browser itself (Pyodide), with no server.

:mod:`mathgames.site.browser` runs inside the page: it gives ipywidgets a comm that talks to
the page's widget manager and an IPython shell that shows what a page's cells display.
``site-src/build.py`` (``make site``) puts the pages, Pyodide and the wheels together.
"""
