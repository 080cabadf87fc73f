"""Everything a table does, by concern, each module importing only those above it here:

- `checks`: the sentence for a refused request, and the envelope around an action;
- `read`: finding a table and viewing it as one viewer may;
- `result_text`: a finished table's result as plain text to paste;
- `seating`: creating a table, seating its players, playing again;
- `moves`: starting, acting, previewing and undoing.

Every read takes the table's Snapshot; a change is computed from the snapshot as a
`store.Change`, which the store writes (`store.write`).
"""
