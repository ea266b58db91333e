"""The Voila app around the games: serving, page headers, the landing page."""
