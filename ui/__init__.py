"""Small Streamlit helpers shared by the pages; the computing lives in `core`."""
