// house-rules: progressive enhancement for house-rules pages
