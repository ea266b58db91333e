"""The app server: Voila with only the app's pages, admission, the reaper and forked kernels.

It runs in the server's process and never imports a page's widgets.
"""
