"""Models: the catalog, where each model comes from (a registry of sources), the sentence-transformers folder
format, conversion, loading and anatomy, the pooling table and the in-memory memo a loaded model keeps."""
