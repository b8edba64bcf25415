"""The session's inputs: kept across pages and in the URL, the page registry."""
