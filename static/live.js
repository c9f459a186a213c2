// live: progressive enhancement for live pages
