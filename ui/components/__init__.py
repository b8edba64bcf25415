"""Parts that several pages draw: the sidebar, inputs, downloads, explanations."""
