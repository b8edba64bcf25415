"""Parts that one page draws, a module per page (views/ holds the pages themselves)."""
