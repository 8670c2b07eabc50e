// Cells, keys and the board/terminal contract live in OpsCells so the terminal layer needs only
// them; whoever imports the board sees them too.
@_exported import OpsCells
