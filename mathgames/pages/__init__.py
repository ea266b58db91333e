"""The app's pages as the kernel builds them: the header, the landing page, and the class's
teacher, join and table pages with their live feed of the shared store.
"""
