"""Everything a table does, by concern, each module importing only those above it here:

- `checks`: the sentence for a refused request, and the envelope around an action;
- `write`: the one way a table changes, a conditional update of its version;
- `read`: finding a table and viewing it as one viewer may;
- `seating`: creating a table, seating its players, playing again;
- `moves`: starting, acting, previewing and undoing.

Every read takes the table's Snapshot; a change is made on the row (models.Table) inside
`write.change`, or, for a move, written from the snapshot it was applied to.
"""
