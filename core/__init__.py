"""Embedding Explorer's computing core: plain Python, no Streamlit."""
