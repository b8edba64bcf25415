"""Figures of late interaction: a text's tokens and a pair's alignment (tokens), a query and a hit token by token
(matches)."""
