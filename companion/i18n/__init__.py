"""Rendering in a language, below the tables: the request's language and catalog
(`reading`) and the engines' messages rendered in it (`messages`). The tables and records
hand their sentences to it; nothing here knows a route or a template."""
